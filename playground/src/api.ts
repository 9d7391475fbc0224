import type {
  ComparisonJson,
  ExperimentJson,
  ExperimentSummaryJson,
  ParamsIssue,
  RenderedMessage,
  RunDetail,
  RunEventJson,
  RunSummary,
  ServerInfo,
  ToolSummary,
} from './api-types';

/** The `ideact dev` HTTP API (same origin) as typed functions, and its server-sent run events. */

/** A 4xx/5xx answer: the server's `{ error: { code, message, issues? } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ParamsIssue[] = [],
  ) {
    super(message);
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; issues?: ParamsIssue[] } })
      ?.error;
    throw new ApiError(
      response.status,
      error?.code ?? `HTTP_${response.status}`,
      error?.message ?? (text || response.statusText),
      error?.issues ?? [],
    );
  }
  return body as T;
}

function post<T>(path: string, body: unknown): Promise<T> {
  return request<T>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A decision about one Call of a run stopped at `awaiting_approval`. */
export type Decision = { approve: true } | { reject: string } | { edit: Record<string, unknown> };

/** The API's endpoints. */
export const api = {
  info: () => request<ServerInfo>('/api/info'),
  tools: () => request<{ tools: ToolSummary[] }>('/api/tools'),
  tool: (name: string) =>
    request<{ tool: ToolSummary; inputSchema: unknown; outputSchema?: unknown }>(
      `/api/tools/${encodeURIComponent(name)}`,
    ),
  startRun: (tool: string, params: unknown) =>
    post<{ runId: string }>('/api/runs', { tool, params }),
  runs: () => request<{ runs: RunSummary[] }>('/api/runs'),
  run: (runId: string) => request<RunDetail>(`/api/runs/${encodeURIComponent(runId)}`),
  experiments: () => request<{ dir: string; experiments: ExperimentSummaryJson[] }>('/api/evals'),
  experiment: (id: string) => request<ExperimentJson>(`/api/evals/${encodeURIComponent(id)}`),
  compare: (baseline: string, id: string) =>
    request<ComparisonJson>(
      `/api/evals/${encodeURIComponent(baseline)}/vs/${encodeURIComponent(id)}`,
    ),
  decide: (runId: string, decisions: Record<string, Decision>) =>
    post<{ runId: string }>(`/api/runs/${encodeURIComponent(runId)}/decisions`, { decisions }),
};

/** What a run's event stream reports. */
export interface RunStreamHandlers {
  onEvent(event: RunEventJson): void;
  onMessages(requestId: string, messages: RenderedMessage[]): void;
  /** The stream ended (`event: end`, after the run's `run-end`). */
  onEnd(): void;
  /** The connection failed (the browser would retry; the caller decides instead). */
  onError(): void;
}

/** Opens `GET /api/runs/:id/events` (replay, then live events); returns the function that closes it. */
export function streamRunEvents(runId: string, handlers: RunStreamHandlers): () => void {
  const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
  let closed = false;
  const close = (): void => {
    closed = true;
    source.close();
  };
  source.addEventListener('run-event', (message) => {
    if (!closed)
      handlers.onEvent(JSON.parse((message as MessageEvent<string>).data) as RunEventJson);
  });
  source.addEventListener('request-messages', (message) => {
    if (closed) return;
    const body = JSON.parse((message as MessageEvent<string>).data) as {
      requestId: string;
      messages: RenderedMessage[];
    };
    handlers.onMessages(body.requestId, body.messages);
  });
  source.addEventListener('end', () => {
    if (closed) return;
    close();
    handlers.onEnd();
  });
  source.onerror = () => {
    if (closed) return;
    close();
    handlers.onError();
  };
  return close;
}
