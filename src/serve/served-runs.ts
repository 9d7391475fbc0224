import type { Run } from '../agent/run';
import { interruptionsOf, type Interruption } from '../agent/approvals';
import type { ResumeOptions } from '../agent/agent-options';
import { collectFailedCalls } from '../agent/failed-calls';
import type { ApprovalDecision } from '../calls/call-approval';
import { callRunDone, startCallRun } from '../dev/call-run';
import { cancelStoredRun } from '../engine/stored-run-control';
import { RunFinishedError } from '../errors/run-finished.error';
import type { AgentState } from '../runs/agent-state';
import type { RunStatus, RunStore, RunSummary, StoredRun } from '../runs/run-store';
import type { Principal } from './authorization';
import { withRunLabels } from './labeled-store';
import { ServedEvents } from './served-events';
import type { ServedTarget } from './served-targets';
import { runNotFound, ServeRequestError } from './serve-request-error';

/**
 * The runs a handler starts and drives (issue 32): each belongs to its principal (a header label;
 * others get 404), is driven in the background (a client that disconnects never stops it), and
 * streams through {@link ServedEvents}. Approvals resume a run awaiting them, once per decision.
 */

/** Labels the handler records in a served run's header. */
export const LABELS = {
  served: 'ideact.served',
  principal: 'ideact.principal',
  target: 'ideact.target',
  chat: 'ideact.chat',
  thread: 'ideact.thread',
} as const;

/** `GET /runs/:id`. */
export interface ServedRunDetail {
  runId: string;
  /** The Idea or `agent` the run was started with. */
  target: string;
  status: RunStatus;
  stopReason?: string;
  output: unknown;
  /** The Calls the run waits for a decision about (status `awaiting_approval`). */
  interruptions?: Interruption[];
  /** Calls that failed: their ids, Tools, codes and messages. */
  failedCalls: Array<{ callId: string; tool: string; code: string; message: string }>;
  usage: { inputTokens: number; outputTokens: number; steps: number; turns: number };
  createdAt: string;
}

/** Options of {@link ServedRuns}. */
export interface ServedRunsOptions {
  store: RunStore;
  targets: ReadonlyMap<string, ServedTarget>;
  /** Runs a principal may have running at once in this process. */
  maxConcurrentRuns: number;
  /** Turn limit of each run. */
  maxTurns?: number;
  report(error: unknown): void;
}

/** Starts, drives, cancels and resumes served runs (see the module comment). */
export class ServedRuns {
  readonly events: ServedEvents;
  private readonly running = new Map<
    string,
    { run: Run; principal: string; done: Promise<void> }
  >();
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ServedRunsOptions) {
    this.events = new ServedEvents(options.store, options.report);
  }

  /** The target called `name`; 404 naming the served ones otherwise. */
  target(name: string): ServedTarget {
    const target = this.options.targets.get(name);
    if (target !== undefined) return target;
    throw new ServeRequestError(
      404,
      'TARGET_NOT_FOUND',
      `Nothing named "${name}" is served (served: ${[...this.options.targets.keys()].join(', ')}).`,
    );
  }

  /**
   * Starts a run of `target` for `principal` (input already checked) and drives it; resolves to its
   * id once its events are being journaled. A 429 when the principal has too many running.
   */
  async start(
    principal: Principal,
    target: ServedTarget,
    prepared: Awaited<ReturnType<ServedTarget['prepare']>>,
    extraLabels: Record<string, string> = {},
  ): Promise<string> {
    this.checkCapacity(principal);
    const store = withRunLabels(this.options.store, {
      [LABELS.served]: 'true',
      [LABELS.principal]: principal.id,
      [LABELS.target]: target.name,
      ...extraLabels,
    });
    const limits = this.options.maxTurns === undefined ? {} : { maxTurns: this.options.maxTurns };
    const run =
      prepared.call !== undefined
        ? startCallRun(target.agent, prepared.call as never, { store, ...limits })
        : target.agent.start({ ...prepared.start, store, ...limits });
    await this.drive(run, principal.id);
    return run.id;
  }

  /** The stored run if `principal` owns it; a 404 otherwise (another's run looks missing). */
  async owned(principal: Principal, runId: string): Promise<StoredRun> {
    const stored = await this.options.store.load(runId).catch(() => undefined);
    if (stored === undefined || stored.header.labels?.[LABELS.principal] !== principal.id) {
      throw runNotFound(runId);
    }
    return stored;
  }

  /**
   * The run's state as it is now: the live one when this process drives the run (no store read),
   * else the stored one. A 404 for another principal's run, as `owned`.
   */
  async currentState(principal: Principal, runId: string): Promise<AgentState> {
    const live = this.running.get(runId);
    if (live !== undefined && live.principal === principal.id) return live.run.state;
    return (await this.owned(principal, runId)).state;
  }

  /** True when the run is driven in this process now. */
  isRunning(runId: string): boolean {
    return this.running.has(runId);
  }

  /** The run's status, output, interruptions, failed Calls and usage. */
  async detail(principal: Principal, runId: string): Promise<ServedRunDetail> {
    const stored = await this.owned(principal, runId);
    const state = stored.state;
    const done = state.nextStep;
    const status: RunStatus = this.isRunning(runId) ? 'running' : stored.status;
    const detail: ServedRunDetail = {
      runId,
      target: stored.header.labels?.[LABELS.target] ?? '',
      status,
      output: done.module === 'done' ? (done.args.output ?? null) : null,
      failedCalls: collectFailedCalls(state).map(({ callId, tool, code, message }) => ({
        callId,
        tool,
        code,
        message,
      })),
      usage: {
        inputTokens: state.usage.inputTokens,
        outputTokens: state.usage.outputTokens,
        steps: state.usage.steps,
        turns: state.usage.turns,
      },
      createdAt: stored.header.createdAt,
    };
    if (done.module === 'done' && status !== 'running') detail.stopReason = done.args.reason;
    if (status === 'awaiting_approval') detail.interruptions = interruptionsOf(state);
    return detail;
  }

  /** The principal's top-level runs, newest first. */
  async list(principal: Principal, limit = 100): Promise<RunSummary[]> {
    const rows = await this.options.store.list({
      parentRunId: null,
      labels: { [LABELS.principal]: principal.id },
      limit,
    });
    return rows.map((row) => (this.isRunning(row.runId) ? { ...row, status: 'running' } : row));
  }

  /** The principal's newest run labelled `key = value` (a chat's or a thread's run). */
  async findLabelled(
    principal: Principal,
    key: string,
    value: string,
  ): Promise<string | undefined> {
    const [row] = await this.options.store.list({
      parentRunId: null,
      labels: { [LABELS.principal]: principal.id, [key]: value },
      limit: 1,
    });
    return row?.runId;
  }

  /**
   * Resumes a run awaiting approval with `decisions` (by callId), once: decisions for one run are
   * taken one at a time, and a second decision about a Call already decided finds the run no
   * longer awaiting it (409). Resolves once the resumed run is being driven.
   */
  decide(
    principal: Principal,
    runId: string,
    decisions: Record<string, ApprovalDecision>,
  ): Promise<void> {
    return this.exclusive(runId, async () => {
      const stored = await this.owned(principal, runId);
      if (this.isRunning(runId) || stored.status !== 'awaiting_approval') {
        throw new ServeRequestError(
          409,
          'RUN_NOT_AWAITING_APPROVAL',
          `Run "${runId}" is ${this.isRunning(runId) ? 'running' : stored.status}, not awaiting approval: its Calls were decided already, or it never stopped for one.`,
        );
      }
      const waiting = new Set(interruptionsOf(stored.state).map((item) => item.callId));
      for (const callId of Object.keys(decisions)) {
        if (!waiting.has(callId)) {
          throw new ServeRequestError(
            400,
            'UNKNOWN_CALL',
            `Call "${callId}" does not wait for a decision in run "${runId}" (waiting: ${[...waiting].join(', ')}).`,
            { path: `/decisions/${callId}` },
          );
        }
      }
      await this.resume(principal, stored, { decisions });
    });
  }

  /**
   * Continues a stopped run of `principal` with a new user message (a chat's next turn); a 409 while
   * it runs.
   */
  continueRun(principal: Principal, runId: string, task: string): Promise<void> {
    return this.exclusive(runId, async () => {
      const stored = await this.owned(principal, runId);
      if (this.isRunning(runId) || stored.status === 'running') {
        throw new ServeRequestError(409, 'RUN_RUNNING', `Run "${runId}" is still running.`);
      }
      await this.resume(principal, stored, { task });
    });
  }

  /**
   * Stops a run for good (status `cancelled`): a run driven here is aborted first. A completed run
   * is a 409. Resolves to the run's status afterwards.
   */
  cancel(principal: Principal, runId: string): Promise<RunStatus> {
    return this.exclusive(runId, async () => {
      const stored = await this.owned(principal, runId);
      const running = this.running.get(runId);
      if (running !== undefined) {
        running.run.abort(new Error('cancelled'));
        await running.done;
      }
      try {
        return (await cancelStoredRun(this.options.store, runId)).status;
      } catch (error) {
        if (!RunFinishedError.isInstance(error)) throw error;
        throw new ServeRequestError(
          409,
          'RUN_FINISHED',
          `Run "${runId}" completed (${stored.status}); there is nothing to cancel.`,
        );
      }
    });
  }

  /**
   * Drives again the served runs the store has as `running` that no process drives (this server was
   * killed mid-run): each continues from its last journaled step. Resolves to their ids.
   */
  async resumeInterrupted(): Promise<string[]> {
    const rows = await this.options.store.list({
      status: 'running',
      parentRunId: null,
      labels: { [LABELS.served]: 'true' },
    });
    const resumed: string[] = [];
    for (const row of rows) {
      if (this.isRunning(row.runId)) continue;
      const stored = await this.options.store.load(row.runId);
      const principal = stored?.header.labels?.[LABELS.principal];
      if (stored === undefined || principal === undefined) continue;
      try {
        await this.resume({ id: principal }, stored, {}, false);
        resumed.push(row.runId);
      } catch (error) {
        this.options.report(error);
      }
    }
    return resumed;
  }

  /** Aborts the runs driven here and waits for them to stop and their events to be journaled. */
  async close(): Promise<void> {
    const running = [...this.running.values()];
    for (const entry of running) entry.run.abort(new Error('the server is closing'));
    await Promise.all(running.map((entry) => entry.done));
    await this.events.flush();
  }

  private async resume(
    principal: Principal,
    stored: StoredRun,
    options: Pick<ResumeOptions, 'decisions' | 'task'>,
    capped = true,
  ): Promise<void> {
    if (capped) this.checkCapacity(principal);
    const runId = stored.header.runId;
    const target = this.target(stored.header.labels?.[LABELS.target] ?? '');
    const limits = this.options.maxTurns === undefined ? {} : { maxTurns: this.options.maxTurns };
    const run = await target.agent.resumeRun(runId, {
      ...options,
      ...limits,
      store: this.options.store,
      ...(target.mode === 'call' ? { stopWhen: [callRunDone] } : {}),
    });
    await this.drive(run, principal.id);
  }

  /**
   * Journals the run's events, then runs it to its end in the background; resolves once the run is
   * in the store (or ended).
   */
  private async drive(run: Run, principal: string): Promise<void> {
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.running.set(run.id, { run, principal, done });
    try {
      await this.events.attach(run, done);
    } catch (error) {
      this.running.delete(run.id);
      settle();
      throw error;
    }
    // The run is in the store once it announced itself (`run-start` follows its creation): a client
    // that reads it right after the start is answered, not told 404.
    const opened = new Promise<void>((resolve) => {
      const stop = run.subscribe(
        () => {
          stop();
          resolve();
        },
        { deltas: false },
      );
      void done.then(() => {
        stop();
        resolve();
      });
    });
    run
      .result()
      .catch((error: unknown) => this.options.report(error))
      .finally(() => {
        this.running.delete(run.id);
        settle();
      });
    await opened;
  }

  private checkCapacity(principal: Principal): void {
    let count = 0;
    for (const entry of this.running.values()) if (entry.principal === principal.id) count += 1;
    if (count >= this.options.maxConcurrentRuns) {
      throw new ServeRequestError(
        429,
        'TOO_MANY_RUNS',
        `You have ${count} runs running (the limit is ${this.options.maxConcurrentRuns}); wait for one to finish or cancel one.`,
        { headers: { 'retry-after': '5' } },
      );
    }
  }

  /** Runs `body` after the previous exclusive operation on the same run settled. */
  private exclusive<TResult>(runId: string, body: () => Promise<TResult>): Promise<TResult> {
    const previous = this.locks.get(runId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(body);
    const settled = next.catch(() => undefined);
    this.locks.set(runId, settled);
    void settled.then(() => {
      if (this.locks.get(runId) === settled) this.locks.delete(runId);
    });
    return next;
  }
}
