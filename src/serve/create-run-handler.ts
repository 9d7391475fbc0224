import { RunHandlerConfigError } from '../errors/run-handler-config.error';
import type { RunStore } from '../runs/run-store';
import { FileRunStore } from '../store/file-run-store';
import type { SkippedIdea } from '../dev/playground-catalog';
import { handleAgUiRoute } from './ag-ui-route';
import { authorizer, principalOf, type AuthorizeRequest } from './authorization';
import { handleChatRoutes } from './chat-route';
import { corsHeaders, preflightResponse } from './cors';
import { errorResponse } from './http-messages';
import { handleRunRoutes, type RouteContext } from './runs-routes';
import { ServedRuns } from './served-runs';
import { servedTargets, type RunHandlerSource, type ServedTarget } from './served-targets';
import { ContainerInstance } from 'typedi';
import { Agent } from '../agent/agent';
import { ServeRequestError } from './serve-request-error';

/** Options of {@link createRunHandler} (docs/serve.md). */
export interface RunHandlerOptions {
  /** Where runs and their events are kept (default: the source's `store`, else `new FileRunStore()`). */
  store?: RunStore;
  /** The path the routes are under (default `''`: `/runs`, `/chat`, `/ag-ui`; e.g. `/api/agent`). */
  basePath?: string;
  /** A bearer token every request must send (`Authorization: Bearer <token>`); principal `token`. */
  token?: string;
  /** Your own check: the request's principal, or undefined to refuse it (401). Wins over `token`. */
  authorize?: AuthorizeRequest;
  /** Origins whose pages may call the handler (`https://app.example.com`; `*`: any). Default none. */
  corsOrigins?: readonly string[];
  /** Largest request body, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Largest run input plus task, in bytes of JSON (default 256 KiB). */
  maxInputBytes?: number;
  /** Runs one principal may have running at once in this process (default 4); past it: 429. */
  maxConcurrentRuns?: number;
  /** Turn limit of every run (default: the agent's). */
  maxTurns?: number;
  /** Told about errors the client gets no detail of (default: `console.error`). */
  onError?: (error: unknown) => void;
  /** Environment the Ideas' provider is chosen from (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/**
 * A Fetch-API handler serving runs to apps (issue 32): mount it in any server (Node's http through
 * `toNodeListener`, Hono, Next.js route handlers…). Also: `close()` (aborts the runs it drives,
 * releases the agents it made) and `resumeInterrupted()` (drives again the runs a killed server
 * left running).
 */
export interface RunHandler {
  (request: Request): Promise<Response>;
  /**
   * Resolves once the source is loaded (an ideas folder is read on creation): what is served (the
   * target names: `agent`, Idea names) and the files that are not Ideas; rejects with the typed error
   * when the source cannot be served (requests then answer 500).
   */
  ready(): Promise<{ targets: string[]; skipped: SkippedIdea[] }>;
  /** Drives again the served runs the store has as running that no process drives; their ids. */
  resumeInterrupted(): Promise<string[]>;
  /** Aborts the runs this handler drives, waits for their events to be journaled, releases agents. */
  close(): Promise<void>;
  /** The store runs are kept in. */
  readonly store: RunStore;
}

/**
 * Serves runs of `source` — an Agent, a container (its agent), or `{ ideasDir, agent, container,
 * provider, store }` — over HTTP (issue 32, docs/serve.md): `POST /runs`, `GET /runs`,
 * `GET /runs/:id`, `POST /runs/:id/cancel`, `POST /runs/:id/approvals`, `GET /runs/:id/events`
 * (server-sent events, resumable with `Last-Event-ID`), `POST /chat` (the AI SDK's `useChat`) and
 * `POST /ag-ui` (AG-UI's `HttpAgent`). Every run reaches its Calls through the agent loop and the
 * call pipeline; a run belongs to the principal that started it.
 */
export function createRunHandler(
  source: RunHandlerSource,
  options: RunHandlerOptions = {},
): RunHandler {
  const maxBodyBytes = positive(options.maxBodyBytes, 1024 * 1024, 'options.maxBodyBytes');
  const maxInputBytes = positive(options.maxInputBytes, 256 * 1024, 'options.maxInputBytes');
  const maxConcurrentRuns = positive(options.maxConcurrentRuns, 4, 'options.maxConcurrentRuns');
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) {
    throw new RunHandlerConfigError({
      setting: 'options.basePath',
      reason: `"${basePath}" must start with "/" (e.g. "/api/agent")`,
    });
  }
  const report =
    options.onError ?? ((error: unknown) => console.error('ideact run handler:', error));
  const given = sourceStore(source);
  const ownsStore = options.store === undefined && given === undefined;
  const store = options.store ?? given ?? new FileRunStore();
  const targets = new Map<string, ServedTarget>();
  const runs = new ServedRuns({
    store,
    targets,
    maxConcurrentRuns,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    report,
  });
  const loading = servedTargets(source, options.env).then((made) => {
    for (const [name, target] of made.targets) targets.set(name, target);
    return made;
  });
  // A source that cannot be served is reported by ready() and by every request (a 500).
  loading.catch(() => undefined);
  const authorize = authorizer(options);
  const origins = options.corsOrigins ?? [];

  const handle = async (request: Request): Promise<Response> => {
    let headers: Record<string, string> = {};
    try {
      headers = corsHeaders(request, origins);
      const url = new URL(request.url);
      if (
        basePath !== '' &&
        url.pathname !== basePath &&
        !url.pathname.startsWith(`${basePath}/`)
      ) {
        throw notFound();
      }
      const segments = url.pathname
        .slice(basePath.length)
        .split('/')
        .filter((part) => part !== '');
      if (request.method === 'OPTIONS') return preflightResponse(headers);
      await loading;
      const principal = await principalOf(request, authorize);
      const context: RouteContext = {
        runs,
        principal,
        headers,
        maxBodyBytes,
        maxInputBytes,
        report,
        statusOf: async (runId) =>
          runs.isRunning(runId) ? 'running' : (await store.load(runId))?.status,
      };
      const decoded = segments.map(decodeSegment);
      const route = decoded[0];
      const answer =
        route === 'runs'
          ? await handleRunRoutes(context, request, decoded)
          : route === 'chat'
            ? await handleChatRoutes(context, request, decoded)
            : route === 'ag-ui'
              ? await handleAgUiRoute(context, request, decoded)
              : undefined;
      if (answer === undefined) throw notFound();
      return answer;
    } catch (error) {
      const response = errorResponse(error, report);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    }
  };
  let closing: Promise<void> | undefined;
  return Object.assign(handle, {
    async ready() {
      const made = await loading;
      return { targets: [...made.targets.keys()], skipped: made.skipped };
    },
    async resumeInterrupted() {
      await loading;
      return runs.resumeInterrupted();
    },
    close() {
      closing ??= (async () => {
        await runs.close();
        const made = await loading.catch(() => undefined);
        for (const agent of made?.owned ?? []) await agent.dispose();
        if (ownsStore) await store.close?.();
      })();
      return closing;
    },
    store,
  });
}

/** The store a `{ …, store }` source names. */
function sourceStore(source: RunHandlerSource): RunStore | undefined {
  if (source instanceof Agent || source instanceof ContainerInstance) return undefined;
  return typeof source === 'object' && source !== null ? source.store : undefined;
}

function positive(value: number | undefined, fallback: number, setting: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new RunHandlerConfigError({ setting, reason: `${value} is not a positive number` });
  }
  return value;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound();
  }
}

function notFound(): ServeRequestError {
  return new ServeRequestError(404, 'NOT_FOUND', 'No such route (see docs/serve.md).');
}
