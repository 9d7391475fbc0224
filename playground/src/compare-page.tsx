import { useEffect, useState } from 'react';
import { api } from './api';
import type { ComparisonJson } from './api-types';
import { routeHash } from './hash-route';

/**
 * `#/evals/:baseline/vs/:id` (issue 33): two experiments side by side, case by case — the baseline's
 * score, the other's, the difference and whether the case regressed, improved, stayed, or is new.
 */
export function ComparePage(props: { baseline: string; id: string }) {
  const [body, setBody] = useState<ComparisonJson | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    api
      .compare(props.baseline, props.id)
      .then(setBody, (failure: Error) => setError(failure.message));
  }, [props.baseline, props.id]);

  if (error !== undefined) return <p className="error">{error}</p>;
  if (body === undefined) return <p className="empty">Loading…</p>;
  const { baseline, experiment, comparison } = body;
  const score = (value: number | undefined): string =>
    value === undefined ? '—' : value.toFixed(2);
  return (
    <section>
      <h1>Compare experiments</h1>
      <p data-testid="compare-summary">
        <a href={routeHash({ page: 'experiment', id: baseline.id })}>{baseline.id}</a> →{' '}
        <a href={routeHash({ page: 'experiment', id: experiment.id })}>{experiment.id}</a>:{' '}
        {comparison.regressions} regressed, {comparison.improvements} improved, mean score{' '}
        {baseline.summary.meanScore.toFixed(2)} → {experiment.summary.meanScore.toFixed(2)} (
        {signed(comparison.meanScoreDelta)})
      </p>
      <table className="list">
        <thead>
          <tr>
            <th>Case</th>
            <th>{baseline.name} (baseline)</th>
            <th>{experiment.name}</th>
            <th>Difference</th>
            <th>Change</th>
          </tr>
        </thead>
        <tbody>
          {comparison.cases.map((item) => (
            <tr
              key={item.name}
              data-testid="compare-row"
              data-case={item.name}
              data-change={item.change}
            >
              <td>{item.name}</td>
              <td className="mono">{score(item.baselineScore)}</td>
              <td className="mono">{score(item.score)}</td>
              <td className="mono" data-testid="compare-delta">
                {item.delta === undefined ? '' : signed(item.delta)}
              </td>
              <td>
                <span className={`change ${item.change}`}>{item.change}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}
