import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApprovalDecision } from '../calls/call-approval';
import type { ExperimentStore } from '../evals/experiment-store';
import { handleEvalsApi } from './eval-routes';
import { isJsonObject, readJsonBody, sendError, sendJson } from './http-json';
import type { CatalogEntry } from './playground-catalog';
import { PlaygroundRequestError } from './playground-request-error';
import type { PlaygroundRuns, RunStreamItem } from './playground-runs';
import { PLAYGROUND_RUN_ID } from './run-event-log';

/**
 * The playground's JSON API (`/api/...`, docs/playground.md): Tools, runs, event streams and
 * decisions, over the catalog and the runs of one server.
 */

/** What the API serves. */
export interface ApiContext {
  entries: ReadonlyMap<string, CatalogEntry>;
  runs: PlaygroundRuns;
  /** The body of `GET /api/info`. */
  info: unknown;
  /** Open event streams (ended when the server closes). */
  streams: Set<ServerResponse>;
  /** The experiments `ideact eval` saved (the Evals page). */
  experiments?: ExperimentStore;
}

/** Heartbeat of event streams, so proxies and browsers keep them open. */
const HEARTBEAT_MS = 15_000;

/** Answers one API request (`segments`: the path after `/api/`, split on `/`). */
export async function handleApi(
  context: ApiContext,
  method: string,
  segments: string[],
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { entries, runs, info, streams } = context;
  const decoded = segments.map(decodeSegment);
  if (decoded[0] === 'evals' && context.experiments !== undefined) {
    return handleEvalsApi(context.experiments, method, decoded.slice(1), response);
  }
  const [first, second, third, ...rest] = decoded;
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
      const entry = entryOf(entries, second as string);
      return sendJson(response, 200, {
        tool: entry.summary,
        inputSchema: entry.inputSchema,
        ...(entry.outputSchema === undefined ? {} : { outputSchema: entry.outputSchema }),
      });
    }
    case 'POST runs':
      return startRun(context, await readJsonBody(request), response);
    case 'GET runs':
      return sendJson(response, 200, { runs: await runs.list() });
    case 'GET runs/:id': {
      const detail = await runs.detail(runIdOf(second as string));
      if (detail === undefined) throw runNotFound(second as string);
      return sendJson(response, 200, detail);
    }
    case 'GET runs/:id/events':
      return streamRun(runs, streams, runIdOf(second as string), request, response);
    case 'POST runs/:id/decisions': {
      const runId = runIdOf(second as string);
      await runs.decide(runId, decisionsOf(await readJsonBody(request)));
      return sendJson(response, 202, { runId });
    }
    default:
      throw notFound();
  }
}

async function startRun(
  context: ApiContext,
  body: unknown,
  response: ServerResponse,
): Promise<void> {
  if (!isJsonObject(body) || typeof body.tool !== 'string') {
    throw new PlaygroundRequestError(
      400,
      'INVALID_REQUEST',
      'Send `{ "tool": "<name>", "params": { … } }`.',
      '/tool',
    );
  }
  const entry = entryOf(context.entries, body.tool);
  const params = body.params ?? {};
  const { issues } = await entry.prepare(params);
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
  const runId = await context.runs.start(entry, params);
  sendJson(response, 202, { runId });
}

async function streamRun(
  runs: PlaygroundRuns,
  streams: Set<ServerResponse>,
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

function entryOf(entries: ReadonlyMap<string, CatalogEntry>, name: string): CatalogEntry {
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
