import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { ContainerInstance } from 'typedi';
import { ACTIVITIES, PROVIDER } from '../container/tokens';
import type { Provider } from '../llm/provider';
import type { Agent } from '../agent/agent';
import type { RunStore } from '../runs/run-store';
import { FileRunStore } from '../store/file-run-store';
import { ExperimentStore } from '../evals/experiment-store';
import { handleApi } from './api-routes';
import { sendError } from './http-json';
import type { PlaygroundProviderInfo } from './playground-api';
import {
  containerEntries,
  ideaEntries,
  type CatalogEntry,
  type SkippedIdea,
} from './playground-catalog';
import { PlaygroundRequestError } from './playground-request-error';
import { PlaygroundRuns } from './playground-runs';
import { choosePlaygroundProvider, loadConfigContainer, providerInfo } from './playground-setup';
import { allowedHosts, guardRequest } from './request-guard';
import { RunEventLog } from './run-event-log';
import { defaultAssetsDir, serveAsset, serveIndex } from './static-assets';

/** What `startDevServer` serves and where (see docs/playground.md). */
export interface DevServerOptions {
  /** A folder of Idea files: each is a form (agent Ideas run as agents); module paths resolve in it. */
  ideasDir?: string;
  /** A module exporting a container or a `createContainer` configuration (its Tools are forms). */
  config?: string;
  /** A container to serve (instead of `config`); its own provider runs its Tools. */
  container?: ContainerInstance;
  /** The model for Ideas (and a config without one); default OpenAI when configured, else offline. */
  provider?: Provider;
  /** Where runs are stored; default `new FileRunStore()` (`.ideact/runs`). */
  store?: RunStore;
  /** Where the playground keeps each run's events; default `<store dir>/.playground` (FileRunStore) or `.ideact/playground`. */
  eventsDir?: string;
  /** The experiments `ideact eval` saved, shown on the Evals page; default `.ideact/evals`. */
  evalsDir?: string;
  /** Host to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; default 4111, 0 picks a free one. */
  port?: number;
  /** The built browser app; default `dist/dev/assets` of the package. */
  assetsDir?: string;
  /** Turn limit of agent runs (default 10). */
  maxTurns?: number;
  /** Environment the provider is chosen from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The model when `provider` is not given, as `--model` takes it (`anthropic:claude-sonnet-4-5`). */
  model?: string;
}

/** A running playground server. */
export interface DevServer {
  /** `http://host:port/`. */
  url: string;
  port: number;
  /** The provider its runs use, as `/api/info` shows it. */
  provider: PlaygroundProviderInfo;
  /** Files of the ideas folder that are not Ideas (not served). */
  skipped: SkippedIdea[];
  /** Stops the server: closes streams, aborts runs in progress, releases the agents. */
  close(): Promise<void>;
}

/**
 * Starts the `ideact dev` playground (issue 20): a local HTTP server with a JSON API over the Tools,
 * Ideas, runs and approvals, server-sent events of runs, and the built browser app. It answers only
 * requests naming itself (Host, Origin; POSTs as JSON) and serves no file but the built assets.
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const env = options.env ?? process.env;
  const provider = options.provider ?? choosePlaygroundProvider(env, options.model);
  const entries = new Map<string, CatalogEntry>();
  const agents: Agent[] = [];
  const add = (list: CatalogEntry[]): void => {
    for (const entry of list)
      if (!entries.has(entry.summary.name)) entries.set(entry.summary.name, entry);
  };
  const container =
    options.container ??
    (options.config === undefined
      ? undefined
      : await loadConfigContainer(options.config, provider));
  let shownProvider = provider;
  if (container !== undefined) {
    const made = containerEntries(container);
    agents.push(made.agent);
    add(made.entries);
    shownProvider = container.get(PROVIDER);
  }
  let skipped: SkippedIdea[] = [];
  if (options.ideasDir !== undefined) {
    const activities = container === undefined ? {} : container.get(ACTIVITIES);
    const made = await ideaEntries(options.ideasDir, provider, activities);
    agents.push(...made.agents);
    add(made.entries);
    skipped = made.skipped;
  }
  const store = options.store ?? new FileRunStore();
  const eventsDir =
    options.eventsDir ??
    (store instanceof FileRunStore
      ? path.join(store.dir, '.playground')
      : path.resolve('.ideact', 'playground'));
  const experiments = new ExperimentStore(options.evalsDir);
  const runs = new PlaygroundRuns({
    store,
    log: new RunEventLog(eventsDir),
    // A case run of an eval: its events are kept with the experiment, so its tree shows too.
    eventsOf: (runId) => experiments.readEvents(runId),
    entryFor: (name) => entries.get(name),
    maxTurns: options.maxTurns ?? 10,
  });
  const assetsDir = path.resolve(options.assetsDir ?? defaultAssetsDir());
  const info = {
    version: packageVersion(),
    provider: providerInfo(shownProvider),
    ...(options.ideasDir === undefined ? {} : { ideasDir: path.resolve(options.ideasDir) }),
    ...(skipped.length === 0 ? {} : { skipped }),
    store: storeInfo(store),
    evals: { dir: experiments.dir },
  };

  const host = options.host ?? '127.0.0.1';
  let hosts = new Set<string>();
  const streams = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof PlaygroundRequestError) {
        sendError(response, error.status, {
          code: error.code,
          message: error.message,
          ...(error.path === undefined ? {} : { path: error.path }),
        });
        return;
      }
      sendError(response, 500, {
        code: 'INTERNAL_ERROR',
        message: error instanceof Error ? error.message : String(error),
      });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    guardRequest(request, hosts);
    const url = new URL(request.url ?? '/', 'http://playground');
    const pathname = url.pathname;
    const method = request.method ?? 'GET';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      const segments = pathname.slice('/api'.length).split('/').slice(1);
      await handleApi(
        { entries, runs, info, streams, experiments },
        method,
        segments,
        request,
        response,
      );
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      throw new PlaygroundRequestError(
        405,
        'METHOD_NOT_ALLOWED',
        `${method} ${pathname} is not served.`,
      );
    }
    if (pathname.startsWith('/assets/')) {
      if (await serveAsset(assetsDir, pathname, response)) return;
      throw new PlaygroundRequestError(404, 'NOT_FOUND', `No asset ${pathname}.`);
    }
    if (pathname.includes('.')) {
      throw new PlaygroundRequestError(404, 'NOT_FOUND', `Nothing is served at ${pathname}.`);
    }
    await serveIndex(assetsDir, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4111, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(host, port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    provider: info.provider,
    skipped,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const stream of streams) stream.end();
        server.closeIdleConnections();
        await runs.close();
        server.closeAllConnections();
        await stopped;
        for (const agent of agents) await agent.dispose();
        if (options.store === undefined) await store.close?.();
      })();
      return closing;
    },
  };
}

function storeInfo(store: RunStore): { kind: 'file' | 'postgres' | 'memory'; location?: string } {
  if (store instanceof FileRunStore) return { kind: 'file', location: store.dir };
  if (store.constructor.name === 'PostgresRunStore') return { kind: 'postgres' };
  return { kind: 'memory' };
}

function packageVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own version, read once
    return (require('../../package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
