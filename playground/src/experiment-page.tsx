import { useEffect, useState } from 'react';
import { api } from './api';
import type { CaseJson, ExperimentJson } from './api-types';
import { routeHash } from './hash-route';

/**
 * `#/evals/:id` (issue 33): one experiment — its summary and thresholds, then every case with its
 * score, and per trial each scorer's score and reason and a link to the trial's run tree.
 */
export function ExperimentPage(props: { id: string }) {
  const [experiment, setExperiment] = useState<ExperimentJson | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    api.experiment(props.id).then(setExperiment, (failure: Error) => setError(failure.message));
  }, [props.id]);

  if (error !== undefined) return <p className="error">{error}</p>;
  if (experiment === undefined) return <p className="empty">Loading…</p>;
  const { summary } = experiment;
  return (
    <section className="experiment-page">
      <header className="run-header">
        <h1>
          {experiment.name} <span className="mono muted">{experiment.id}</span>
        </h1>
        <span
          className={`status big ${experiment.passed ? 'completed' : 'failed'}`}
          data-testid="experiment-result"
        >
          {experiment.passed ? 'passed' : 'failed'}
        </span>
      </header>
      <dl className="facts">
        <dt>Target</dt>
        <dd className="mono">{experiment.target}</dd>
        <dt>Provider</dt>
        <dd>
          {experiment.provider ?? 'unknown'}
          {experiment.model === undefined ? '' : ` · ${experiment.model}`}
        </dd>
        <dt>Cases</dt>
        <dd data-testid="experiment-summary">
          {summary.passedCases} of {summary.cases} passed · pass rate {summary.passRate.toFixed(2)}
          {experiment.trials > 1
            ? ` · pass@${experiment.trials} ${summary.passAtK.toFixed(2)}`
            : ''}{' '}
          · mean score {summary.meanScore.toFixed(2)} · {summary.trials} run(s)
        </dd>
        <dt>Thresholds</dt>
        <dd>
          {experiment.thresholds.map((threshold) => (
            <div key={threshold.name} className={threshold.passed ? '' : 'error'}>
              {threshold.passed ? '✓' : '✗'} {threshold.name} {threshold.actual.toFixed(2)}{' '}
              {threshold.passed ? '≥' : '<'} {threshold.required}
            </div>
          ))}
        </dd>
      </dl>
      <table className="list cases">
        <thead>
          <tr>
            <th>Case</th>
            <th>Score</th>
            <th>Result</th>
            <th>Trials: scores and reasons</th>
          </tr>
        </thead>
        <tbody>
          {experiment.cases.map((item) => (
            <CaseRow key={item.name} item={item} trials={experiment.trials} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function CaseRow(props: { item: CaseJson; trials: number }) {
  const { item } = props;
  return (
    <tr data-testid="case-row" data-case={item.name} data-passed={String(item.passed)}>
      <td>
        <strong>{item.name}</strong>
      </td>
      <td className="mono" data-testid="case-score">
        {item.score.toFixed(2)}
        {props.trials > 1 ? ` ±${item.spread.stddev.toFixed(2)}` : ''}
      </td>
      <td>
        <span className={`status ${item.passed ? 'completed' : 'failed'}`}>
          {item.passed ? 'pass' : 'fail'}
        </span>
      </td>
      <td>
        {item.trials.map((trial) => (
          <div key={trial.trial} className="trial" data-testid="trial">
            <a
              className="mono"
              data-testid="run-link"
              href={routeHash({ page: 'run', runId: trial.runId })}
            >
              {props.trials > 1 ? `trial ${trial.trial}: ` : ''}run {trial.runId}
            </a>{' '}
            <span className="muted">
              {trial.stopReason}
              {trial.error === undefined ? '' : ` — ${trial.error.code}: ${trial.error.message}`}
            </span>
            <ul className="scores">
              {trial.scores.map((score) => (
                <li
                  key={score.scorer}
                  data-testid="score"
                  data-scorer={score.scorer}
                  data-passed={String(score.passed)}
                  className={score.passed ? 'pass' : 'fail'}
                >
                  <span className="mono">
                    {score.passed ? '✓' : '✗'} {score.scorer} {score.score.toFixed(2)}
                  </span>{' '}
                  <span data-testid="score-reason">{score.reason}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </td>
    </tr>
  );
}
