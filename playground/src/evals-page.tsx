import { useEffect, useState } from 'react';
import { api } from './api';
import type { ExperimentSummaryJson } from './api-types';
import { routeHash } from './hash-route';

/**
 * `#/evals` (issue 33): the experiments `ideact eval` saved, newest first — name, target, provider,
 * cases passed, pass rate and mean score — with two picked to compare side by side.
 */
export function EvalsPage() {
  const [experiments, setExperiments] = useState<ExperimentSummaryJson[] | undefined>();
  const [dir, setDir] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [picked, setPicked] = useState<string[]>([]);

  useEffect(() => {
    api.experiments().then(
      (body) => {
        setExperiments(body.experiments);
        setDir(body.dir);
      },
      (failure: Error) => setError(failure.message),
    );
  }, []);

  if (error !== undefined) return <p className="error">{error}</p>;
  if (experiments === undefined) return <p className="empty">Loading…</p>;
  const toggle = (id: string): void =>
    setPicked((current) =>
      current.includes(id) ? current.filter((item) => item !== id) : [...current, id].slice(-2),
    );
  // The older of the two picked is the baseline.
  const ordered = experiments.filter((item) => picked.includes(item.id)).reverse();
  return (
    <section>
      <h1>Evals</h1>
      {experiments.length === 0 ? (
        <p className="empty">
          No experiments in {dir} yet: run <span className="mono">ideact eval FILE</span> (see
          docs/evals.md).
        </p>
      ) : (
        <>
          <p className="muted">
            Pick two to compare: {ordered.length === 2 ? '' : `${2 - ordered.length} more`}
            {ordered.length === 2 && (
              <a
                data-testid="compare-link"
                href={routeHash({
                  page: 'compare',
                  baseline: ordered[0]!.id,
                  id: ordered[1]!.id,
                })}
              >
                compare {ordered[0]!.name} → {ordered[1]!.name}
              </a>
            )}
          </p>
          <table className="list">
            <thead>
              <tr>
                <th />
                <th>Experiment</th>
                <th>Target</th>
                <th>Provider</th>
                <th>Started</th>
                <th>Cases passed</th>
                <th>Pass rate</th>
                <th>Mean score</th>
                <th>Result</th>
              </tr>
            </thead>
            <tbody>
              {experiments.map((item) => (
                <tr key={item.id} data-testid="experiment-row" data-experiment={item.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`compare ${item.id}`}
                      data-testid="compare-pick"
                      checked={picked.includes(item.id)}
                      onChange={() => toggle(item.id)}
                    />
                  </td>
                  <td>
                    <a href={routeHash({ page: 'experiment', id: item.id })}>{item.name}</a>
                    <div className="mono muted">{item.id}</div>
                  </td>
                  <td className="mono">{item.target}</td>
                  <td>{item.provider ?? ''}</td>
                  <td>{new Date(item.startedAt).toLocaleString()}</td>
                  <td>
                    {item.passedCases} / {item.cases}
                  </td>
                  <td>{item.passRate.toFixed(2)}</td>
                  <td>{item.meanScore.toFixed(2)}</td>
                  <td>
                    <span className={`status ${item.passed ? 'completed' : 'failed'}`}>
                      {item.passed ? 'passed' : 'failed'}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
