import { useEffect, useState } from 'react';
import { api } from './api';
import type { ServerInfo } from './api-types';
import { ComparePage } from './compare-page';
import { EvalsPage } from './evals-page';
import { ExperimentPage } from './experiment-page';
import { HistoryPage } from './history-page';
import { RunPage } from './run-page';
import { ToolPage } from './tool-page';
import { ToolsPage } from './tools-page';
import { useHashRoute } from './use-hash-route';

/** The playground: a header with the provider banner and the navigation, then the current page. */
export function App() {
  const route = useHashRoute();
  const [info, setInfo] = useState<ServerInfo | undefined>();
  const [infoError, setInfoError] = useState<string | undefined>();

  useEffect(() => {
    api.info().then(setInfo, (error: Error) => setInfoError(error.message));
  }, []);

  return (
    <div className="app">
      <header className="top">
        <a className="brand" href="#/">
          ideact <span>dev</span>
        </a>
        <nav>
          <a href="#/" className={route.page === 'tools' || route.page === 'tool' ? 'active' : ''}>
            Tools &amp; Ideas
          </a>
          <a
            href="#/runs"
            className={route.page === 'runs' || route.page === 'run' ? 'active' : ''}
          >
            Runs
          </a>
          <a
            href="#/evals"
            className={
              route.page === 'evals' || route.page === 'experiment' || route.page === 'compare'
                ? 'active'
                : ''
            }
          >
            Evals
          </a>
        </nav>
        {info !== undefined && (
          <span className="store-kind">
            runs: {info.store.kind}
            {info.store.location !== undefined ? ` (${info.store.location})` : ''}
          </span>
        )}
      </header>
      {info !== undefined && <ProviderBanner info={info} />}
      {infoError !== undefined && <div className="banner error">{infoError}</div>}
      <main>
        {route.page === 'tools' && <ToolsPage />}
        {route.page === 'tool' && <ToolPage key={route.name} name={route.name} />}
        {route.page === 'runs' && <HistoryPage />}
        {route.page === 'run' && <RunPage key={route.runId} runId={route.runId} />}
        {route.page === 'evals' && <EvalsPage />}
        {route.page === 'experiment' && <ExperimentPage key={route.id} id={route.id} />}
        {route.page === 'compare' && (
          <ComparePage
            key={`${route.baseline}/${route.id}`}
            baseline={route.baseline}
            id={route.id}
          />
        )}
        {route.page === 'not-found' && <p className="empty">No page at {route.hash}.</p>}
      </main>
    </div>
  );
}

function ProviderBanner(props: { info: ServerInfo }) {
  const { provider } = props.info;
  const model = provider.model === undefined ? '' : ` · ${provider.model}`;
  return (
    <div
      className={`banner ${provider.offline ? 'offline' : 'online'}`}
      data-testid="provider-banner"
    >
      <strong>
        {provider.offline ? 'offline provider' : `provider: ${provider.name}${model}`}
      </strong>
      {provider.note !== undefined && <span> — {provider.note}</span>}
    </div>
  );
}
