import { callErrorOf } from '../requests/send-request';
import type { ApprovalDecision } from '../calls/call-approval';
import { interruptionsOf } from '../agent/approvals';
import type { Run } from '../agent/run';
import type { RunEvent } from '../runs/run-event';
import type { RunStore, StoredRun } from '../runs/run-store';
import type { CallError } from '../protocol/call';
import { callRunDone, startCallRun } from './call-run';
import type { CatalogEntry } from './playground-catalog';
import type {
  PlaygroundInterruption,
  PlaygroundRunSummary,
  RenderedMessage,
} from './playground-api';
import { PlaygroundRequestError } from './playground-request-error';
import { RunEventLog, type RunLogMeta } from './run-event-log';

/**
 * The playground's runs: started from a catalog entry, driven in the background, their events kept
 * in memory for live streams AND appended to the {@link RunEventLog} for after a restart; states and
 * statuses come from the run store. A run stopped for approval is resumed with decisions under its id.
 */

/** What a stream of a run receives: its events, request messages, and the end of the segment. */
export type RunStreamItem =
  | { type: 'event'; event: RunEvent }
  | { type: 'messages'; requestId: string; messages: RenderedMessage[] }
  | { type: 'end' };

/** `GET /api/runs/:id`. */
export interface PlaygroundRunDetail {
  run: PlaygroundRunSummary;
  events: RunEvent[];
  requests: Record<string, { messages: RenderedMessage[] }>;
  interruptions?: PlaygroundInterruption[];
  /** Why the last start or resume failed outside the run (e.g. the store refused it). */
  error?: CallError;
}

interface TrackedRun {
  runId: string;
  meta?: RunLogMeta;
  startedAt: string;
  events: RunEvent[];
  requests: Map<string, RenderedMessage[]>;
  /** Request ids seen so far, and this segment's renames (a resumed run numbers requests anew). */
  seenRequests: Set<string>;
  renames: Map<string, string>;
  /** Root `run-start` events seen (1 + resumes). */
  segments: number;
  active: boolean;
  listeners: Set<(item: RunStreamItem) => void>;
  settled?: Promise<void>;
  error?: CallError;
}

/** Options of {@link PlaygroundRuns}. */
export interface PlaygroundRunsOptions {
  store: RunStore;
  log: RunEventLog;
  /** The entry a run's Tool names (to resume it). */
  entryFor(name: string): CatalogEntry | undefined;
  /** Turn limit of agent runs. */
  maxTurns: number;
  /**
   * The events of a run the playground did not start, when someone kept them (an eval's case runs):
   * its tree is drawn from them. Undefined when there are none.
   */
  eventsOf?: (runId: string) => Promise<RunEvent[] | undefined>;
}

/** Starts, tracks, resumes and lists runs (see the module comment). */
export class PlaygroundRuns {
  private readonly tracked = new Map<string, TrackedRun>();
  private readonly running = new Map<string, Run>();

  constructor(private readonly options: PlaygroundRunsOptions) {}

  /** Starts a run of `entry` with params already checked by `entry.prepare`; resolves to its id. */
  async start(entry: CatalogEntry, params: Record<string, unknown>): Promise<string> {
    const { store } = this.options;
    const common = { store, events: { messages: true } };
    let run: Run;
    if (entry.mode === 'call') {
      run = startCallRun(entry.agent, { _tool: entry.summary.name, ...params }, common);
    } else {
      const start = (await entry.prepare(params)).start ?? {};
      run = entry.agent.start({ ...start, ...common, maxTurns: this.options.maxTurns });
    }
    const meta: RunLogMeta = { tool: entry.summary.name, mode: entry.mode };
    const tracked = this.newTracked(run.id, new Date().toISOString(), meta);
    this.tracked.set(run.id, tracked);
    await this.options.log.writeMeta(run.id, meta);
    this.drive(tracked, Promise.resolve(run));
    return run.id;
  }

  /**
   * Resumes a run stopped for approval with `decisions` (by callId). Rejects with a
   * {@link PlaygroundRequestError} when the run is unknown, not awaiting approval, or a callId is
   * not one of its interruptions; otherwise the run continues in the background.
   */
  async decide(runId: string, decisions: Record<string, ApprovalDecision>): Promise<void> {
    const tracked = await this.track(runId);
    const stored = await this.options.store.load(runId);
    if (stored === undefined && tracked === undefined) {
      throw new PlaygroundRequestError(404, 'RUN_NOT_FOUND', `No run "${runId}" in the run store.`);
    }
    if (tracked?.active === true || stored?.status !== 'awaiting_approval') {
      throw new PlaygroundRequestError(
        409,
        'RUN_NOT_AWAITING_APPROVAL',
        `Run "${runId}" is ${tracked?.active === true ? 'running' : (stored?.status ?? 'unknown')}, not awaiting approval: only a run stopped at awaiting_approval takes decisions.`,
      );
    }
    const pending = new Set(interruptionsOf(stored.state).map((item) => item.callId));
    for (const callId of Object.keys(decisions)) {
      if (!pending.has(callId)) {
        throw new PlaygroundRequestError(
          400,
          'UNKNOWN_CALL',
          `Call "${callId}" does not wait for a decision in run "${runId}" (waiting: ${[...pending].join(', ') || 'none'}).`,
          `/decisions/${callId}`,
        );
      }
    }
    const meta = tracked?.meta ?? (await this.options.log.readMeta(runId));
    const entry = meta === undefined ? undefined : this.options.entryFor(meta.tool);
    if (meta === undefined || entry === undefined) {
      throw new PlaygroundRequestError(
        409,
        'TOOL_NOT_SERVED',
        `Run "${runId}" was started ${meta === undefined ? 'outside the playground' : `with "${meta.tool}", which this playground does not serve`}; resume it where its Tools are (e.g. \`ideact runs resume\`).`,
      );
    }
    const run = tracked ?? this.newTracked(runId, stored.header.createdAt, meta);
    this.tracked.set(runId, run);
    run.meta = meta;
    run.active = true;
    run.error = undefined;
    this.drive(
      run,
      entry.agent.resumeRun(runId, {
        store: this.options.store,
        decisions,
        events: { messages: true },
        ...(meta.mode === 'call' ? { stopWhen: [callRunDone] } : {}),
      }),
    );
  }

  /** The run's summary, events, request messages and (awaiting approval) interruptions. */
  async detail(runId: string): Promise<PlaygroundRunDetail | undefined> {
    const tracked = await this.track(runId);
    const stored = await this.options.store.load(runId).catch(() => undefined);
    if (tracked === undefined && stored === undefined) return undefined;
    const detail: PlaygroundRunDetail = {
      run: summaryOf(runId, tracked, stored),
      events: tracked?.events ?? [],
      requests: Object.fromEntries(
        [...(tracked?.requests ?? new Map<string, RenderedMessage[]>())].map(([id, messages]) => [
          id,
          { messages },
        ]),
      ),
    };
    if (tracked?.active !== true && stored?.status === 'awaiting_approval') {
      detail.interruptions = interruptionsOf(stored.state);
    }
    if (tracked?.error !== undefined) detail.error = tracked.error;
    return detail;
  }

  /** Top-level runs of the store, newest first (with the runs just started that it lists not yet). */
  async list(limit = 100): Promise<PlaygroundRunSummary[]> {
    const rows = await this.options.store.list({ parentRunId: null, limit });
    const listed = new Set(rows.map((row) => row.runId));
    const fresh = [...this.tracked.values()].filter((run) => run.active && !listed.has(run.runId));
    const summaries = await Promise.all(
      rows.map(async (row) => {
        const stored = await this.options.store.load(row.runId).catch(() => undefined);
        const tracked = this.tracked.get(row.runId);
        const meta = tracked?.meta ?? (await this.options.log.readMeta(row.runId));
        const summary = summaryOf(row.runId, tracked, stored, row.createdAt, row.status);
        if (meta !== undefined) summary.tool = meta.tool;
        return summary;
      }),
    );
    return [...fresh.map((run) => summaryOf(run.runId, run, undefined)), ...summaries];
  }

  /**
   * Streams the run: every item so far, then live ones until the running segment ends (`end`);
   * a run not running gets its items and `end` at once. Returns the function that stops it, or
   * undefined for an unknown run.
   */
  async stream(
    runId: string,
    send: (item: RunStreamItem) => void,
  ): Promise<(() => void) | undefined> {
    const tracked = await this.track(runId);
    if (tracked === undefined) {
      if ((await this.options.store.load(runId).catch(() => undefined)) === undefined)
        return undefined;
      send({ type: 'end' });
      return () => undefined;
    }
    const sentMessages = new Set<string>();
    for (const event of tracked.events) {
      send({ type: 'event', event });
      if (event.type === 'request-start') {
        const messages = tracked.requests.get(event.requestId);
        if (messages !== undefined && !sentMessages.has(event.requestId)) {
          sentMessages.add(event.requestId);
          send({ type: 'messages', requestId: event.requestId, messages });
        }
      }
    }
    if (!tracked.active) {
      send({ type: 'end' });
      return () => undefined;
    }
    tracked.listeners.add(send);
    return () => tracked.listeners.delete(send);
  }

  /** Aborts the runs in progress and waits for them to stop (server shutdown). */
  async close(): Promise<void> {
    for (const run of this.running.values()) run.abort();
    await Promise.all([...this.tracked.values()].map((run) => run.settled));
    await this.options.log.flush();
  }

  /** The tracked run (from memory, else from the log); undefined when the playground has none. */
  private async track(runId: string): Promise<TrackedRun | undefined> {
    const known = this.tracked.get(runId);
    if (known !== undefined) return known;
    let lines = await this.options.log.read(runId);
    const meta = await this.options.log.readMeta(runId);
    if (lines === undefined && meta === undefined) {
      const kept = await this.options.eventsOf?.(runId).catch(() => undefined);
      if (kept === undefined) return undefined;
      lines = kept.map((event) => ({ kind: 'event' as const, event }));
    }
    const raced = this.tracked.get(runId);
    if (raced !== undefined) return raced;
    const firstTime = lines?.find((line) => line.kind === 'event');
    const startedAt = new Date(firstTime?.kind === 'event' ? firstTime.event.time : Date.now());
    const tracked = this.newTracked(runId, startedAt.toISOString(), meta);
    // Loaded from the log: not running in this process (a decision or a new start drives it again).
    tracked.active = false;
    for (const line of lines ?? []) {
      if (line.kind === 'messages') tracked.requests.set(line.requestId, line.messages);
      else {
        tracked.events.push(line.event);
        if (line.event.type === 'request-start') tracked.seenRequests.add(line.event.requestId);
        if (isRootRunStart(tracked, line.event)) tracked.segments += 1;
      }
    }
    this.tracked.set(runId, tracked);
    return tracked;
  }

  private newTracked(runId: string, startedAt: string, meta: RunLogMeta | undefined): TrackedRun {
    return {
      runId,
      ...(meta === undefined ? {} : { meta }),
      startedAt,
      events: [],
      requests: new Map(),
      seenRequests: new Set(),
      renames: new Map(),
      segments: 0,
      active: true,
      listeners: new Set(),
    };
  }

  /** Drives a run to its end in the background, recording its events. */
  private drive(tracked: TrackedRun, opening: Promise<Run>): void {
    tracked.active = true;
    tracked.settled = opening
      .then(async (run) => {
        this.running.set(tracked.runId, run);
        const unsubscribe = run.subscribe((event) => this.record(tracked, event));
        try {
          await run.result();
        } finally {
          unsubscribe();
          this.running.delete(tracked.runId);
        }
      })
      .catch((error: unknown) => {
        tracked.error = callErrorOf(error);
        process.emitWarning(`ideact dev: run ${tracked.runId} failed: ${tracked.error.message}`);
      })
      .finally(() => {
        this.endSegment(tracked);
      });
  }

  private endSegment(tracked: TrackedRun): void {
    if (!tracked.active) return;
    tracked.active = false;
    for (const listener of [...tracked.listeners]) listener({ type: 'end' });
    tracked.listeners.clear();
  }

  /** One event: request ids made unique across resumes, messages split off, stored and broadcast. */
  private record(tracked: TrackedRun, original: RunEvent): void {
    const log = this.options.log;
    if (isRootRunStart(tracked, original)) {
      tracked.segments += 1;
      tracked.renames.clear();
    }
    let event = original;
    let messages: RenderedMessage[] | undefined;
    if (event.type === 'request-start') {
      let requestId = event.requestId;
      if (tracked.seenRequests.has(requestId)) {
        requestId = `${event.requestId}~${tracked.segments}`;
        tracked.renames.set(event.requestId, requestId);
      }
      tracked.seenRequests.add(requestId);
      const { messages: rendered, ...rest } = event;
      messages = rendered;
      event = { ...rest, requestId };
    } else if (
      event.type === 'solution-delta' ||
      event.type === 'reasoning-delta' ||
      event.type === 'request-end'
    ) {
      const renamed = tracked.renames.get(event.requestId);
      if (renamed !== undefined) event = { ...event, requestId: renamed };
    }
    tracked.events.push(event);
    log.append(tracked.runId, { kind: 'event', event });
    const items: RunStreamItem[] = [{ type: 'event', event }];
    if (messages !== undefined && event.type === 'request-start') {
      tracked.requests.set(event.requestId, messages);
      log.append(tracked.runId, { kind: 'messages', requestId: event.requestId, messages });
      items.push({ type: 'messages', requestId: event.requestId, messages });
    }
    for (const listener of tracked.listeners) for (const item of items) listener(item);
    if (event.type === 'run-end' && event.runId === tracked.runId) this.endSegment(tracked);
  }
}

function isRootRunStart(tracked: TrackedRun, event: RunEvent): boolean {
  return event.type === 'run-start' && event.runId === tracked.runId;
}

function summaryOf(
  runId: string,
  tracked: TrackedRun | undefined,
  stored: StoredRun | undefined,
  createdAt?: string,
  status?: string,
): PlaygroundRunSummary {
  const summary: PlaygroundRunSummary = {
    runId,
    status: tracked?.active === true ? 'running' : (status ?? stored?.status ?? 'unknown'),
    startedAt:
      createdAt ?? stored?.header.createdAt ?? tracked?.startedAt ?? new Date().toISOString(),
  };
  if (tracked?.meta !== undefined) summary.tool = tracked.meta.tool;
  if (stored !== undefined) {
    const usage = stored.state.usage;
    summary.durationMs = Math.round(usage.elapsedMs);
    summary.tokens = {
      input: usage.inputTokens,
      output: usage.outputTokens,
      total: usage.inputTokens + usage.outputTokens,
    };
  }
  return summary;
}
