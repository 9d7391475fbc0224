import type { RunEvent } from '../runs/run-event';

/**
 * ideact's run events as the Vercel AI SDK's UI message stream (issue 32 item 2; protocol `v1`, the
 * one `ai`@5–7 and `useChat` from `@ai-sdk/react` read): one discriminated union of chunks, sent as
 * server-sent events. The run's own events (not those of nested runs) map as:
 * - the Vessel's `output` as it grows: a string → a text part (text-start/-delta/-end); any other
 *   value → a `data-output` part, replaced as it grows;
 * - each Call's params as the model writes them → a `data-params` part per Call, and its
 *   `_reasoningForCall` → a reasoning part (reasoning-start/-delta/-end); the model's own reasoning
 *   (`reasoning-delta`, providers that return it) → a reasoning part per request;
 * - `call-start` → a tool part with its input (`dynamic`: the page need not declare the Tools),
 *   `call-end` → its output, its error, or denied when a person rejected it;
 * - `approval-requested` → the tool part and a tool-approval request (approvalId = the Call's id);
 * - `run-end` → an error chunk when it failed, then `finish` with `{ runId, stopReason }`.
 * The message metadata carries the run id, so a page can name the run (and a reload resumes it).
 */

/** One chunk of the UI message stream (the subset ideact writes). */
export type UiMessageChunk =
  | { type: 'start'; messageMetadata: UiMessageMetadata }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      dynamic: true;
    }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic: true }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic: true }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'data-output'; id: string; data: unknown }
  | { type: 'data-params'; id: string; data: { callIndex: number; tool?: string; params: unknown } }
  | { type: 'error'; errorText: string }
  | {
      type: 'finish';
      finishReason: 'stop' | 'error' | 'length' | 'other';
      messageMetadata: UiMessageMetadata;
    };

/** What the assistant message's metadata holds. */
export interface UiMessageMetadata {
  runId: string;
  stopReason?: string;
}

/** The response header that names the protocol version. */
export const UI_MESSAGE_STREAM_HEADER = { 'x-vercel-ai-ui-message-stream': 'v1' };

/** Maps one run's events to UI message chunks, in order (one instance per streamed response). */
export class UiMessageStream {
  private readonly texts = new Map<string, string>();
  private readonly reasonings = new Map<string, string>();
  private readonly shownCalls = new Set<string>();

  constructor(private readonly runId: string) {}

  /** The chunk that opens the assistant message. */
  start(): UiMessageChunk[] {
    return [{ type: 'start', messageMetadata: { runId: this.runId } }];
  }

  /** The chunks for one event (none for events a chat does not show). */
  map(event: RunEvent): UiMessageChunk[] {
    if (event.runId !== this.runId || event.path.length !== 1) return [];
    switch (event.type) {
      case 'output-delta':
        return event.part === 'output'
          ? this.output(event.requestId, event.value)
          : [
              ...this.reasoning(event.requestId, event.callIndex ?? 0, event.reasoning),
              {
                type: 'data-params',
                id: `${event.requestId}:${event.callIndex ?? 0}`,
                data: {
                  callIndex: event.callIndex ?? 0,
                  ...(event.tool === undefined ? {} : { tool: event.tool }),
                  params: event.value,
                },
              },
            ];
      case 'reasoning-delta':
        // The model's own reasoning (providers that return it): one reasoning part per request.
        if (event.index !== 0) return [];
        return this.reasoning(
          event.requestId,
          undefined,
          (this.reasonings.get(event.requestId) ?? '') + event.delta,
        );
      case 'request-end':
        return [...this.endReasoning(event.requestId), ...this.endText(event.requestId)];
      case 'call-start':
        return this.showCall(event.callId, event.tool, event.params);
      case 'approval-requested':
        return event.calls.flatMap((call) => [
          ...this.showCall(call.callId, call.tool, call.params),
          {
            type: 'tool-approval-request' as const,
            approvalId: call.callId,
            toolCallId: call.callId,
          },
        ]);
      case 'call-end': {
        const shown = this.showCall(event.callId, event.tool, {});
        if (event.error === undefined) {
          return [
            ...shown,
            {
              type: 'tool-output-available',
              toolCallId: event.callId,
              output: event.output ?? null,
              dynamic: true,
            },
          ];
        }
        if (event.error.code === 'CALL_REJECTED') {
          return [...shown, { type: 'tool-output-denied', toolCallId: event.callId }];
        }
        return [
          ...shown,
          {
            type: 'tool-output-error',
            toolCallId: event.callId,
            errorText: `${event.error.code}: ${event.error.message}`,
            dynamic: true,
          },
        ];
      }
      case 'run-end': {
        const chunks: UiMessageChunk[] = [];
        for (const key of [...this.reasonings.keys()]) chunks.push(...this.endReasoning(key));
        for (const requestId of [...this.texts.keys()]) chunks.push(...this.endText(requestId));
        if (event.error !== undefined) {
          chunks.push({ type: 'error', errorText: `${event.error.code}: ${event.error.message}` });
        }
        chunks.push({
          type: 'finish',
          finishReason: finishReasonOf(event.stopReason, event.error !== undefined),
          messageMetadata: { runId: this.runId, stopReason: event.stopReason },
        });
        return chunks;
      }
      default:
        return [];
    }
  }

  private output(requestId: string, value: unknown): UiMessageChunk[] {
    if (typeof value !== 'string') return [{ type: 'data-output', id: 'output', data: value }];
    const id = `text-${requestId}`;
    const shown = this.texts.get(requestId);
    const chunks: UiMessageChunk[] = [];
    if (shown === undefined) chunks.push({ type: 'text-start', id });
    const before = shown ?? '';
    // Each value extends the previous one (output-delta values grow as prefixes).
    if (value.length > before.length && value.startsWith(before)) {
      chunks.push({ type: 'text-delta', id, delta: value.slice(before.length) });
    }
    this.texts.set(requestId, value.startsWith(before) ? value : before);
    return chunks;
  }

  /** A Call's `_reasoningForCall` as it grows: a reasoning part per Call. */
  private reasoning(
    requestId: string,
    callIndex: number | undefined,
    value: string | undefined,
  ): UiMessageChunk[] {
    if (value === undefined) return [];
    const key = callIndex === undefined ? requestId : `${requestId}:${callIndex}`;
    const id = `reasoning-${key}`;
    const shown = this.reasonings.get(key);
    const chunks: UiMessageChunk[] = [];
    if (shown === undefined) chunks.push({ type: 'reasoning-start', id });
    const before = shown ?? '';
    if (value.length > before.length && value.startsWith(before)) {
      chunks.push({ type: 'reasoning-delta', id, delta: value.slice(before.length) });
    }
    this.reasonings.set(key, value.startsWith(before) ? value : before);
    return chunks;
  }

  /** Ends the reasoning parts of a request (`prefix`: its id) or of one Call (`<requestId>:<index>`). */
  private endReasoning(prefix: string): UiMessageChunk[] {
    const chunks: UiMessageChunk[] = [];
    for (const key of [...this.reasonings.keys()]) {
      if (key !== prefix && !key.startsWith(`${prefix}:`)) continue;
      this.reasonings.delete(key);
      chunks.push({ type: 'reasoning-end', id: `reasoning-${key}` });
    }
    return chunks;
  }

  private endText(requestId: string): UiMessageChunk[] {
    if (!this.texts.has(requestId)) return [];
    this.texts.delete(requestId);
    return [{ type: 'text-end', id: `text-${requestId}` }];
  }

  private showCall(callId: string, tool: string, params: unknown): UiMessageChunk[] {
    if (this.shownCalls.has(callId)) return [];
    this.shownCalls.add(callId);
    return [
      {
        type: 'tool-input-available',
        toolCallId: callId,
        toolName: tool,
        input: params,
        dynamic: true,
      },
    ];
  }
}

function finishReasonOf(
  stopReason: string,
  failed: boolean,
): 'stop' | 'error' | 'length' | 'other' {
  if (failed || stopReason === 'error') return 'error';
  if (stopReason.startsWith('max_')) return 'length';
  if (stopReason === 'output' || stopReason === 'no_calls' || stopReason === 'awaiting_approval') {
    return 'stop';
  }
  return 'other';
}
