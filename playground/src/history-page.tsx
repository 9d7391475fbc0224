import { useEffect, useState } from 'react';
import { api } from './api';
import type { RunSummary } from './api-types';
import { routeHash } from './hash-route';
import { formatDuration } from './waterfall';

/** `#/runs`: the run store's runs, newest first, with status, duration and tokens. */
export function HistoryPage() {
  const [runs, setRuns] = useState<RunSummary[] | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    api.runs().then(
      (body) => setRuns(body.runs),
      (failure: Error) => setError(failure.message),
    );
  }, []);

  if (error !== undefined) return <p className="error">{error}</p>;
  if (runs === undefined) return <p className="empty">Loading…</p>;
  return (
    <section>
      <h1>Runs</h1>
      {runs.length === 0 ? (
        <p className="empty">No runs yet: open a Tool and press Run.</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th>Run</th>
              <th>Tool</th>
              <th>Status</th>
              <th>Started</th>
              <th>Duration</th>
              <th>Tokens (in / out / total)</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.runId} data-testid="history-row" data-run-id={run.runId}>
                <td className="mono">
                  <a href={routeHash({ page: 'run', runId: run.runId })}>{run.runId}</a>
                </td>
                <td>{run.tool ?? ''}</td>
                <td>
                  <span className={`status ${run.status}`} data-testid="history-status">
                    {run.status}
                  </span>
                </td>
                <td>{new Date(run.startedAt).toLocaleString()}</td>
                <td>{run.durationMs === undefined ? '' : formatDuration(run.durationMs)}</td>
                <td className="mono">
                  {run.tokens === undefined
                    ? ''
                    : `${run.tokens.input} / ${run.tokens.output} / ${run.tokens.total}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
