import type { ApprovalDecision } from '../calls/call-approval';
import type { Principal } from './authorization';
import { isJsonObject, jsonResponse, readJsonObject } from './http-messages';
import { eventFrame, sseResponse } from './sse-response';
import type { ServedRuns } from './served-runs';
import { AGENT_TARGET, type ServedTarget } from './served-targets';
import { ServeRequestError } from './serve-request-error';

/**
 * The run routes (issue 32 item 1, docs/serve.md): start, list, read, cancel, approve, and the
 * event stream with `Last-Event-ID`.
 */

/** What a route needs besides the request. */
export interface RouteContext {
  runs: ServedRuns;
  principal: Principal;
  /** CORS headers for this request's answers. */
  headers: Record<string, string>;
  maxBodyBytes: number;
  maxInputBytes: number;
  /** Reads a stored run's status (a stream of a run driven elsewhere ends when it stops). */
  statusOf(runId: string): Promise<string | undefined>;
  /** Logs an error the client is not told about. */
  report(error: unknown): void;
}

/** Answers `segments` (the path under the base path, split on `/`), or undefined when no route matches. */
export async function handleRunRoutes(
  context: RouteContext,
  request: Request,
  segments: string[],
): Promise<Response | undefined> {
  const method = request.method;
  const [, id, action, ...rest] = segments;
  if (rest.length > 0) return undefined;
  const { runs, principal, headers } = context;
  if (id === undefined) {
    if (method === 'POST') return startRun(context, request);
    if (method === 'GET') {
      const limit = Number(new URL(request.url).searchParams.get('limit') ?? '100');
      const rows = await runs.list(principal, Number.isInteger(limit) && limit > 0 ? limit : 100);
      return jsonResponse(200, { runs: rows.map(summaryOf) }, headers);
    }
    return undefined;
  }
  if (action === undefined && method === 'GET') {
    return jsonResponse(200, await runs.detail(principal, id), headers);
  }
  if (action === 'events' && method === 'GET') {
    await runs.owned(principal, id);
    return streamEvents(context, id, lastEventId(request));
  }
  if (action === 'cancel' && method === 'POST') {
    const status = await runs.cancel(principal, id);
    return jsonResponse(200, { runId: id, status }, headers);
  }
  if (action === 'approvals' && method === 'POST') {
    const body = await readJsonObject(request, context.maxBodyBytes);
    await runs.decide(principal, id, decisionsOf(body));
    return jsonResponse(202, { runId: id }, headers);
  }
  return undefined;
}

/** `POST /runs { agent | idea, input, task? }`: 201 `{ runId }`, or the event stream when asked. */
async function startRun(context: RouteContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, context.maxBodyBytes);
  const target = targetOf(context.runs, body);
  const task = taskOf(body);
  checkInputSize(body.input, task, context.maxInputBytes);
  const prepared = await preparedInput(target, body.input, task, '/input');
  const runId = await context.runs.start(context.principal, target, prepared);
  if ((request.headers.get('accept') ?? '').includes('text/event-stream')) {
    return streamEvents(context, runId, 0, { 'x-ideact-run-id': runId });
  }
  return jsonResponse(201, { runId }, { ...context.headers, location: runId });
}

/** The run's events after `after` as server-sent events, `id:` = the event's number. */
export function streamEvents(
  context: RouteContext,
  runId: string,
  after: number,
  extraHeaders: Record<string, string> = {},
): Response {
  return sseResponse(
    (writer) =>
      context.runs.events.follow(
        runId,
        after,
        {
          event: (stored) => writer.raw(eventFrame(stored)),
          end: () => writer.close(),
        },
        async () => (await context.statusOf(runId)) === 'running',
      ),
    { ...context.headers, ...extraHeaders },
  );
}

/** The target a start names (`idea`, `agent`, else the only one / `agent`). */
export function targetOf(runs: ServedRuns, body: Record<string, unknown>): ServedTarget {
  const named = body.idea ?? body.agent;
  if (named !== undefined && typeof named !== 'string') {
    throw new ServeRequestError(400, 'INVALID_REQUEST', '`agent` and `idea` are names (strings).', {
      path: body.idea === undefined ? '/agent' : '/idea',
    });
  }
  return runs.target(named ?? AGENT_TARGET);
}

/**
 * The target's start prepared for `input`, or a 400 `INVALID_PARAMS` that names each issue's path
 * in the input and `path`, where the input is in the request's body.
 */
export async function preparedInput(
  target: ServedTarget,
  input: unknown,
  task: string | undefined,
  path: string,
): Promise<Awaited<ReturnType<ServedTarget['prepare']>>> {
  const prepared = await target.prepare(input, task);
  if (prepared.issues.length > 0) {
    throw new ServeRequestError(
      400,
      'INVALID_PARAMS',
      `The input of "${target.name}" does not match its input schema: ${prepared.issues
        .map((issue) => `${issue.path === '' ? '(root)' : issue.path} ${issue.message}`)
        .join('; ')}.`,
      { path },
    );
  }
  return prepared;
}

/** The optional `task` (a string). */
export function taskOf(body: Record<string, unknown>): string | undefined {
  if (body.task === undefined || body.task === null) return undefined;
  if (typeof body.task !== 'string') {
    throw new ServeRequestError(400, 'INVALID_REQUEST', '`task` must be a string.', {
      path: '/task',
    });
  }
  return body.task;
}

/** A 413 when the input and task together are larger than `limit` bytes of JSON. */
export function checkInputSize(input: unknown, task: string | undefined, limit: number): void {
  const size =
    Buffer.byteLength(JSON.stringify(input ?? null)) + Buffer.byteLength(task ?? '', 'utf8');
  if (size > limit) {
    throw new ServeRequestError(
      413,
      'INPUT_TOO_LARGE',
      `The run's input and task are ${size} bytes; the server takes at most ${limit} (maxInputBytes).`,
      { path: '/input' },
    );
  }
}

/** The number after which to stream: `Last-Event-ID`, else `?after=`, else 0. */
function lastEventId(request: Request): number {
  const value =
    request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after') ?? '0';
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) {
    throw new ServeRequestError(
      400,
      'INVALID_EVENT_ID',
      `"${value}" is not an event id (ids are the numbers the stream's "id:" lines carry).`,
    );
  }
  return number;
}

/** `{ decisions: { [callId]: { approve: true } | { reject: string } | { edit: object } } }`, checked. */
function decisionsOf(body: Record<string, unknown>): Record<string, ApprovalDecision> {
  const decisions = body.decisions;
  if (!isJsonObject(decisions) || Object.keys(decisions).length === 0) {
    throw new ServeRequestError(
      400,
      'INVALID_DECISIONS',
      'Send `{ "decisions": { "<callId>": { "approve": true } | { "reject": "why" } | { "edit": { … } } } }`.',
      { path: '/decisions' },
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
      throw new ServeRequestError(
        400,
        'INVALID_DECISIONS',
        `The decision for "${callId}" must be { "approve": true }, { "reject": "why" } or { "edit": { …params } }.`,
        { path: `/decisions/${callId}` },
      );
    }
  }
  return decisions as Record<string, ApprovalDecision>;
}

function summaryOf(row: {
  runId: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  stopReason?: string;
  task?: string;
  labels?: Record<string, string>;
}) {
  return {
    runId: row.runId,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.stopReason === undefined ? {} : { stopReason: row.stopReason }),
    ...(row.task === undefined ? {} : { task: row.task }),
    target: row.labels?.['ideact.target'] ?? '',
  };
}
