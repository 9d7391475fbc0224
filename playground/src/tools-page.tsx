import { useEffect, useState } from 'react';
import { api } from './api';
import type { ToolSummary } from './api-types';
import { routeHash } from './hash-route';

/** `#/`: every Tool and Idea the playground can run, each a link to its form. */
export function ToolsPage() {
  const [tools, setTools] = useState<ToolSummary[] | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    api.tools().then(
      (body) => setTools(body.tools),
      (failure: Error) => setError(failure.message),
    );
  }, []);

  if (error !== undefined) return <p className="error">{error}</p>;
  if (tools === undefined) return <p className="empty">Loading…</p>;
  if (tools.length === 0) {
    return <p className="empty">No Tools or Ideas: start `ideact dev` with --ideas or --config.</p>;
  }
  return (
    <section>
      <h1>Tools &amp; Ideas</h1>
      <table className="list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th>Description</th>
            <th>Module</th>
            <th>Imports</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name} data-testid="tool-row" data-tool={tool.name}>
              <td>
                <a href={routeHash({ page: 'tool', name: tool.name })}>{tool.name}</a>
                {tool.file !== undefined && <div className="muted">{tool.file}</div>}
              </td>
              <td>
                <span className={`badge ${tool.kind}`}>{tool.kind}</span>
                {tool.agent && <span className="badge agent">agent</span>}
                <span className="badge source">{tool.source}</span>
              </td>
              <td>{tool.description ?? ''}</td>
              <td className="mono">{tool.module ?? ''}</td>
              <td className="mono">{formatImports(tool.imports)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function formatImports(imports: unknown): string {
  if (imports === undefined || imports === null) return '';
  if (Array.isArray(imports)) return imports.map((entry) => formatImports(entry)).join(', ');
  if (typeof imports === 'string') return imports;
  return JSON.stringify(imports);
}
