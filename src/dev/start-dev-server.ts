import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { ContainerInstance } from 'typedi';
import { ACTIVITIES, PROVIDER } from '../container/tokens';
import type { Provider } from '../llm/provider';
import type { ApprovalDecision } from '../runtime/loop/approval-decision';
import type { Agent } from '../runtime/loop/agent';
import type { RunStore } from '../runtime/run-store';
import { FileRunStore } from '../store/file-run-store';
import { isJsonObject, readJsonBody, sendError, sendJson } from './http-json';
import type { PlaygroundProviderInfo } from './playground-api';
import {
  containerEntries,
  ideaEntries,
  type CatalogEntry,
  type SkippedIdea,
} from './playground-catalog';
import { PlaygroundRequestError } from './playground-request-error';
import { PlaygroundRuns, type RunStreamItem } from './playground-runs';
import { choosePlaygroundProvider, loadConfigContainer, providerInfo } from './playground-setup';
import { allowedHosts, guardRequest } from './request-guard';
import { PLAYGROUND_RUN_ID, RunEventLog } from './run-event-log';
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

/** Heartbeat of event streams, so proxies and browsers keep them open. */
const HEARTBEAT_MS = 15_000;

/**
 * Starts the `ideact dev` playground (issue 20): a local HTTP server with a JSON API over the Tools,
 * Ideas, runs and approvals, server-sent events of runs, and the built browser app. It answers only
 * requests naming itself (Host, Origin; POSTs as JSON) and serves no file but the built assets.
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const env = options.env ?? process.env;
  const provider = options.provider ?? choosePlaygroundProvider(env);
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
  const runs = new PlaygroundRuns({
    store,
    log: new RunEventLog(eventsDir),
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
      await api(method, pathname.slice('/api'.length).split('/').slice(1), request, response);
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

  async function api(
    method: string,
    segments: string[],
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const [first, second, third, ...rest] = segments.map(decodeSegment);
    const route = `${method} ${first ?? ''}${second === undefined ? '' : '/:id'}${third === undefined ? '' : `/${third}`}`;
    if (rest.length > 0) throw notFound();
    switch (route) {
      case 'GET info':
        return sendJson(response, 200, info);
      case 'GET tools':
        return sendJson(response, 200, {
          tools: [...entries.values()].map((entry) => entry.summary),
        });
      case 'GET tools/:id': {
        const entry = entryOf(second as string);
        return sendJson(response, 200, {
          tool: entry.summary,
          inputSchema: entry.inputSchema,
          ...(entry.outputSchema === undefined ? {} : { outputSchema: entry.outputSchema }),
        });
      }
      case 'POST runs':
        return startRun(await readJsonBody(request), response);
      case 'GET runs':
        return sendJson(response, 200, { runs: await runs.list() });
      case 'GET runs/:id': {
        const detail = await runs.detail(runIdOf(second as string));
        if (detail === undefined) throw runNotFound(second as string);
        return sendJson(response, 200, detail);
      }
      case 'GET runs/:id/events':
        return streamRun(runIdOf(second as string), request, response);
      case 'POST runs/:id/decisions': {
        const runId = runIdOf(second as string);
        await runs.decide(runId, decisionsOf(await readJsonBody(request)));
        return sendJson(response, 202, { runId });
      }
      default:
        throw notFound();
    }
  }

  async function startRun(body: unknown, response: ServerResponse): Promise<void> {
    if (!isJsonObject(body) || typeof body.tool !== 'string') {
      throw new PlaygroundRequestError(
        400,
        'INVALID_REQUEST',
        'Send `{ "tool": "<name>", "params": { … } }`.',
        '/tool',
      );
    }
    const entry = entryOf(body.tool);
    const params = body.params ?? {};
    const { issues } = entry.prepare(params);
    if (issues.length > 0 || !isJsonObject(params)) {
      const list = issues.length > 0 ? issues : [{ path: '', message: 'must be an object' }];
      sendError(response, 400, {
        code: 'INVALID_PARAMS',
        message: `The params of "${entry.summary.name}" do not match its input schema: ${list
          .map((issue) => `${issue.path === '' ? '(root)' : issue.path} ${issue.message}`)
          .join('; ')}.`,
        issues: list,
      });
      return;
    }
    const runId = await runs.start(entry, params);
    sendJson(response, 202, { runId });
  }

  async function streamRun(
    runId: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    let open = true;
    let heartbeat: NodeJS.Timeout | undefined;
    const subscription: { stop?: () => void } = {};
    const finish = (): void => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      subscription.stop?.();
      streams.delete(response);
      response.end();
    };
    const send = (item: RunStreamItem): void => {
      if (!open) return;
      if (!response.headersSent) startStream();
      if (item.type === 'event')
        response.write(`event: run-event\ndata: ${JSON.stringify(item.event)}\n\n`);
      else if (item.type === 'messages') {
        const data = { requestId: item.requestId, messages: item.messages };
        response.write(`event: request-messages\ndata: ${JSON.stringify(data)}\n\n`);
      } else {
        response.write('event: end\ndata: {}\n\n');
        finish();
      }
    };
    const startStream = (): void => {
      response.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Content-Type-Options': 'nosniff',
      });
      response.flushHeaders();
      streams.add(response);
      heartbeat = setInterval(() => response.write(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
    };
    request.on('close', finish);
    const stop = await runs.stream(runId, send);
    if (stop === undefined) {
      open = false;
      throw runNotFound(runId);
    }
    if (open) subscription.stop = stop;
    else stop();
  }

  function entryOf(name: string): CatalogEntry {
    const entry = entries.get(name);
    if (entry === undefined) {
      throw new PlaygroundRequestError(
        404,
        'TOOL_NOT_FOUND',
        `No Tool or Idea named "${name}" (served: ${[...entries.keys()].join(', ') || 'none'}).`,
      );
    }
    return entry;
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

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound();
  }
}

function runIdOf(id: string): string {
  if (!PLAYGROUND_RUN_ID.test(id)) throw runNotFound(id);
  return id;
}

function notFound(): PlaygroundRequestError {
  return new PlaygroundRequestError(
    404,
    'NOT_FOUND',
    'No such API endpoint (see docs/playground.md).',
  );
}

function runNotFound(runId: string): PlaygroundRequestError {
  return new PlaygroundRequestError(
    404,
    'RUN_NOT_FOUND',
    `No run "${runId}" in the run store or the playground's log.`,
  );
}

/** `{ decisions: { [callId]: { approve: true } | { reject: string } | { edit: object } } }`, checked. */
function decisionsOf(body: unknown): Record<string, ApprovalDecision> {
  const decisions = isJsonObject(body) ? body.decisions : undefined;
  if (!isJsonObject(decisions) || Object.keys(decisions).length === 0) {
    throw new PlaygroundRequestError(
      400,
      'INVALID_DECISIONS',
      'Send `{ "decisions": { "<callId>": { "approve": true } | { "reject": "why" } | { "edit": { … } } } }`.',
      '/decisions',
    );
  }
  for (const [callId, decision] of Object.entries(decisions)) {
    const valid =
      isJsonObject(decision) &&
      Object.keys(decision).length === 1 &&
      (decision.approve === true ||
        typeof decision.reject === 'string' ||
        isJsonObject(decision.edit));
    if (!valid) {
      throw new PlaygroundRequestError(
        400,
        'INVALID_DECISIONS',
        `The decision for "${callId}" must be { "approve": true }, { "reject": "why" } or { "edit": { …params } }.`,
        `/decisions/${callId}`,
      );
    }
  }
  return decisions as Record<string, ApprovalDecision>;
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
