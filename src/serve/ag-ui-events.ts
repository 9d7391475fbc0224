import type { RunEvent } from '../runs/run-event';

/**
 * ideact's run events as AG-UI events (issue 32 item 2; AG-UI core 1.0, what `@ag-ui/client`'s
 * `HttpAgent` and CopilotKit read). An AG-UI run is one request on a thread; the thread is one
 * ideact run, continued by each next request (new user message, or resume entries answering its
 * interrupts). The run's own events (not nested runs') map as:
 * - start → RUN_STARTED, then STATE_SNAPSHOT `{ output: null, state }`;
 * - the Vessel's `output` as it grows → STATE_DELTA (JSON Patch on `/output`), and when it is a
 *   string also TEXT_MESSAGE_START/CONTENT/END; a Call's `_reasoningForCall` as it grows, and the
 *   model's own reasoning (`reasoning-delta`) → REASONING_START, REASONING_MESSAGE_START/CONTENT/END,
 *   REASONING_END;
 * - `call-start` → TOOL_CALL_START, TOOL_CALL_ARGS (the params as JSON), TOOL_CALL_END;
 *   `call-end` → TOOL_CALL_RESULT (the output, or `{ error }`);
 * - `approval-requested` → the tool call, and an interrupt per Call (reason `tool_approval`);
 * - the run's State, read after each Actor step, when it changed → STATE_DELTA (`replace` of `/state`);
 * - `run-end` → STATE_SNAPSHOT `{ output, state }` then RUN_FINISHED (outcome `interrupt` while Calls
 *   await approval, else `success`; `result` = the output when there is one), or RUN_ERROR when it failed.
 */

/** One AG-UI event (plain JSON; `type` is the protocol's event type). */
export type AgUiEvent = { type: string } & Record<string, unknown>;

/** What a person answers per interrupt: approve, or reject with a reason, or approve edited args. */
export const APPROVAL_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    reason: { type: 'string' },
    editedArgs: { type: 'object' },
  },
  required: ['approved'],
};

/** Maps one ideact run's events to one AG-UI run's events (one instance per request). */
export class AgUiEventStream {
  private readonly texts = new Map<string, string>();
  private readonly reasonings = new Map<string, string>();
  private readonly shownCalls = new Set<string>();
  private readonly interrupts: Array<{ callId: string; tool: string }> = [];
  private outputShown = false;
  /** The run's State as last sent (JSON), so a delta goes out only when it changed. */
  private stateSent = 'null';

  constructor(private readonly ids: { threadId: string; runId: string; ideactRunId: string }) {}

  /** RUN_STARTED and the first state snapshot. */
  start(state: unknown): AgUiEvent[] {
    this.stateSent = JSON.stringify(state ?? null);
    return [
      { type: 'RUN_STARTED', threadId: this.ids.threadId, runId: this.ids.runId },
      { type: 'STATE_SNAPSHOT', snapshot: { output: null, state: state ?? null } },
    ];
  }

  /** The events for one ideact event (`finalState`: the run's State, read when it ended). */
  map(event: RunEvent, finalState?: unknown): AgUiEvent[] {
    if (event.runId !== this.ids.ideactRunId || event.path.length !== 1) return [];
    switch (event.type) {
      case 'output-delta':
        return event.part === 'output'
          ? this.output(event.requestId, event.value)
          : this.reasoning(`${event.requestId}:${event.callIndex ?? 0}`, event.reasoning);
      case 'reasoning-delta':
        // The model's own reasoning (providers that return it): one reasoning message per request.
        if (event.index !== 0) return [];
        return this.reasoning(
          event.requestId,
          (this.reasonings.get(event.requestId) ?? '') + event.delta,
        );
      case 'request-end':
        return [...this.endReasoning(event.requestId), ...this.endText(event.requestId)];
      case 'call-start':
        return this.showCall(event.callId, event.tool, event.params);
      case 'approval-requested':
        return event.calls.flatMap((call) => {
          this.interrupts.push({ callId: call.callId, tool: call.tool });
          return this.showCall(call.callId, call.tool, call.params);
        });
      case 'call-end':
        return [
          ...this.showCall(event.callId, event.tool, {}),
          {
            type: 'TOOL_CALL_RESULT',
            messageId: `result-${event.callId}`,
            toolCallId: event.callId,
            role: 'tool',
            content: JSON.stringify(
              event.error === undefined ? (event.output ?? null) : { error: event.error },
            ),
          },
        ];
      case 'run-end': {
        const events: AgUiEvent[] = [];
        for (const key of [...this.reasonings.keys()]) events.push(...this.endReasoning(key));
        for (const requestId of [...this.texts.keys()]) events.push(...this.endText(requestId));
        events.push({
          type: 'STATE_SNAPSHOT',
          snapshot: { output: event.output ?? null, state: finalState ?? null },
        });
        if (event.error !== undefined || event.stopReason === 'error') {
          events.push({
            type: 'RUN_ERROR',
            message: event.error?.message ?? 'The run failed.',
            code: event.error?.code ?? 'RUN_FAILED',
          });
          return events;
        }
        const waiting = event.stopReason === 'awaiting_approval' && this.interrupts.length > 0;
        events.push({
          type: 'RUN_FINISHED',
          threadId: this.ids.threadId,
          runId: this.ids.runId,
          // No output: no `result` (the protocol reads an absent one, not null).
          ...(event.output === null || event.output === undefined ? {} : { result: event.output }),
          outcome: waiting
            ? {
                type: 'interrupt',
                interrupts: this.interrupts.map(({ callId, tool }) => ({
                  id: callId,
                  reason: 'tool_approval',
                  message: `Approve the call of "${tool}"?`,
                  toolCallId: callId,
                  responseSchema: APPROVAL_RESPONSE_SCHEMA,
                })),
              }
            : { type: 'success' },
        });
        return events;
      }
      default:
        return [];
    }
  }

  /** Whether `event` ends a step of this run after which its State may have changed (an Actor's). */
  changesState(event: RunEvent): boolean {
    return (
      event.type === 'step' &&
      event.module === 'actor' &&
      event.runId === this.ids.ideactRunId &&
      event.path.length === 1
    );
  }

  /** A STATE_DELTA replacing `/state` when the run's State differs from the one last sent. */
  state(value: unknown): AgUiEvent[] {
    const text = JSON.stringify(value ?? null);
    if (text === this.stateSent) return [];
    this.stateSent = text;
    return [
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/state', value: value ?? null }] },
    ];
  }

  private output(requestId: string, value: unknown): AgUiEvent[] {
    const events: AgUiEvent[] = [
      {
        type: 'STATE_DELTA',
        delta: [{ op: this.outputShown ? 'replace' : 'add', path: '/output', value }],
      },
    ];
    this.outputShown = true;
    if (typeof value !== 'string') return events;
    const messageId = `text-${requestId}`;
    const shown = this.texts.get(requestId);
    if (shown === undefined) {
      events.push({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
    }
    const before = shown ?? '';
    if (value.length > before.length && value.startsWith(before)) {
      events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: value.slice(before.length) });
    }
    this.texts.set(requestId, value.startsWith(before) ? value : before);
    return events;
  }

  /** A Call's `_reasoningForCall` as it grows: one reasoning message per Call. */
  private reasoning(key: string, value: string | undefined): AgUiEvent[] {
    if (value === undefined) return [];
    const messageId = `reasoning-${key}`;
    const shown = this.reasonings.get(key);
    const events: AgUiEvent[] = [];
    if (shown === undefined) {
      events.push({ type: 'REASONING_START', messageId });
      events.push({ type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' });
    }
    const before = shown ?? '';
    if (value.length > before.length && value.startsWith(before)) {
      events.push({
        type: 'REASONING_MESSAGE_CONTENT',
        messageId,
        delta: value.slice(before.length),
      });
    }
    this.reasonings.set(key, value.startsWith(before) ? value : before);
    return events;
  }

  /** Ends the reasoning messages of a request (or of one Call's key). */
  private endReasoning(prefix: string): AgUiEvent[] {
    const events: AgUiEvent[] = [];
    for (const key of [...this.reasonings.keys()]) {
      if (key !== prefix && !key.startsWith(`${prefix}:`)) continue;
      this.reasonings.delete(key);
      const messageId = `reasoning-${key}`;
      events.push(
        { type: 'REASONING_MESSAGE_END', messageId },
        { type: 'REASONING_END', messageId },
      );
    }
    return events;
  }

  private endText(requestId: string): AgUiEvent[] {
    if (!this.texts.has(requestId)) return [];
    this.texts.delete(requestId);
    return [{ type: 'TEXT_MESSAGE_END', messageId: `text-${requestId}` }];
  }

  private showCall(callId: string, tool: string, params: unknown): AgUiEvent[] {
    if (this.shownCalls.has(callId)) return [];
    this.shownCalls.add(callId);
    return [
      { type: 'TOOL_CALL_START', toolCallId: callId, toolCallName: tool },
      { type: 'TOOL_CALL_ARGS', toolCallId: callId, delta: JSON.stringify(params) },
      { type: 'TOOL_CALL_END', toolCallId: callId },
    ];
  }
}
