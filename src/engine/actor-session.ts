import type { Agent } from '../agent/agent';
import type { Run } from '../agent/run';
import type { AgentState } from '../runs/agent-state';
import { NestedAgentStoppedError } from '../errors/nested-agent-stopped.error';
import { untilAborted } from '../internal/until-aborted';
import type { NestedRunRequest } from '../runs/nested-run-gate';
import { endedCallIds, statusOf } from '../runs/run-journal';
import type { RunHeader, RunStore, StoredRun } from '../runs/run-store';
import { ActorEndBuffer } from './actor-end-buffer';
import { isAborted, markCancelled } from './agent-step';
import type { RunSession } from './run-session';
import { reopenStoredRun } from './stored-run-control';

/** What an {@link ActorSession} needs from its workflow. @internal */
export interface ActorSessionInput {
  store: RunStore;
  runId: string;
  agentFor: (header: RunHeader) => Promise<Agent>;
  /** Aborted when the worker stops: the session's Calls are abandoned (their steps never record). */
  stopSignal: AbortSignal;
  /** Waits for a child workflow to end (DBOS `getResult`, polling the system database). */
  awaitChild: (workflowId: string) => Promise<unknown>;
  /** The run as the Actor report's step left it (none: the Actor loads it from the store). */
  session?: RunSession;
}

/** Which module Call the workflow starts a child workflow for next (the `nested-run` step's output). */
export interface NestedRunTurn {
  callId: string;
  /** The nested run to start as a child workflow; null when the Call started none. */
  runId: string | null;
}

/** A module Call's way to its child workflow: its hand-off (or none), then the child's id. */
interface NestedTicket {
  handed: Promise<string | null>;
  hand: (runId: string | null) => void;
  /** The child workflow's id once the workflow started it (null: it starts none for this Call). */
  child: Promise<string | null>;
  started: (workflowId: string | null) => void;
  failed: (error: unknown) => void;
}

/** A Call's body the Actor hands to the DBOS step reserved for it, and when that body has run. */
interface Ticket {
  body: Promise<(() => Promise<void>) | undefined>;
  hand: (body: (() => Promise<void>) | undefined) => void;
  ran: Promise<void>;
  done: (error?: unknown) => void;
}

/**
 * One Actor step of a worker's run, driven by the DBOS steps the workflow reserved for the Vessel's
 * Calls, one per Call in index order (so a replay numbers them alike). The first step body that
 * actually runs (not one DBOS returns from its record) starts the Actor on the run loaded from the
 * store; the Actor runs each pending Call's body (execution, then its result recorded in the store)
 * inside that Call's own step, through its `callGate`. A step whose Call the Actor does not run (done
 * before a crash, rejected, held for approval) returns once the Actor has ended.
 * @internal
 */
export class ActorSession {
  private readonly tickets = new Map<string, Ticket>();
  private readonly nested = new Map<string, NestedTicket>();
  private readonly controller = new AbortController();
  private actor?: Promise<void>;
  private cancelled = false;
  /** Aborts the session's Calls when the worker stops; removed when the session ends. */
  private readonly onStop = (): void => this.controller.abort(this.input.stopSignal.reason);

  constructor(
    private readonly input: ActorSessionInput,
    callIds: readonly string[],
    moduleCallIds: readonly string[] = [],
  ) {
    for (const callId of callIds) this.tickets.set(callId, ticket());
    for (const callId of moduleCallIds) this.nested.set(callId, nestedTicket());
    // The worker's signal lives as long as the worker: a listener left on it would keep every
    // session of every run reachable (and warn after ten). `ended()` removes it (issue 27 item 9).
    input.stopSignal.addEventListener('abort', this.onStop, { once: true });
  }

  /**
   * The body of the DBOS step of Call `callId`: starts the Actor if needed, runs the Call's body when
   * the Actor hands it over, and resolves once it ran (or the Actor ended without it). While it runs,
   * a cancel of the workflow (`cancelSignal`) cancels the session's Calls.
   */
  async step(callId: string, cancelSignal: AbortSignal | undefined): Promise<string> {
    const onCancel = (): void => {
      this.cancelled = true;
      this.controller.abort(cancelSignal?.reason);
    };
    cancelSignal?.addEventListener('abort', onCancel, { once: true });
    try {
      return await this.runStep(callId);
    } finally {
      cancelSignal?.removeEventListener('abort', onCancel);
    }
  }

  private async runStep(callId: string): Promise<string> {
    this.startActor();
    const own = this.tickets.get(callId) as Ticket;
    const body = await own.body;
    if (body !== undefined) {
      try {
        await body();
        own.done();
        this.nested.get(callId)?.hand(null);
      } catch (error) {
        own.done(error);
        this.nested.get(callId)?.hand(null);
        // A stopping worker abandons the step: never recorded, the next worker runs it again.
        if (this.input.stopSignal.aborted) return new Promise(() => undefined);
        throw error;
      }
    }
    if (this.input.stopSignal.aborted) return new Promise(() => undefined);
    return callId;
  }

  /**
   * The body of a `nested-run` step: the first of `remaining` (module Calls the workflow has not
   * started a child for) to hand its nested run off, or to end without one (null). Its output is
   * recorded, so a replay starts the same children in the same order.
   */
  async nextNested(remaining: readonly string[]): Promise<NestedRunTurn> {
    this.startActor();
    const turn = await Promise.race(
      remaining.map(async (callId) => {
        const own = this.nested.get(callId) as NestedTicket;
        return { callId, runId: await own.handed };
      }),
    );
    if (this.input.stopSignal.aborted) return new Promise(() => undefined);
    return turn;
  }

  /** The workflow started `workflowId` as the child of module Call `callId` (null: none). */
  childStarted(callId: string, workflowId: string | null): void {
    this.nested.get(callId)?.started(workflowId);
  }

  /** The workflow could not start module Call `callId`'s child: the Call fails with `error`. */
  childFailed(callId: string, error: unknown): void {
    this.nested.get(callId)?.failed(error);
  }

  /**
   * Settles when the Actor has ended (it was never started when every step was replayed); a
   * cancelled one has marked its run `cancelled`. The session is over then: it stops listening to
   * the worker's stop signal.
   */
  async ended(): Promise<void> {
    try {
      await this.actor?.catch(() => undefined);
    } finally {
      this.input.stopSignal.removeEventListener('abort', this.onStop);
    }
  }

  /**
   * Starts the Actor once. Its failure is read by `ended()`; marked handled here, because a worker
   * that stops abandons the steps that would call `ended()` (the failure must not end the process).
   */
  private startActor(): void {
    if (this.actor !== undefined) return;
    this.actor = this.runActor();
    this.actor.catch(() => undefined);
  }

  private async runActor(): Promise<void> {
    const { store, runId } = this.input;
    try {
      const stored = await (this.input.session?.take() ?? store.load(runId));
      // A session holds nothing unwritten after a model turn (its step writes all); if it did, first.
      const unwritten = this.input.session?.takeUnwritten() ?? [];
      if (unwritten.length > 0) await store.append(runId, unwritten);
      if (stored === undefined || stored.status === 'cancelled') return;
      const agent = await this.input.agentFor(stored.header);
      // The Actor's last commit, which only hands the run to the next turn, may go out with it.
      const buffer = new ActorEndBuffer(store);
      const run = agent.resumeLoaded(stored, buffer, {
        eagerCalls: false,
        signal: this.controller.signal,
        callGate: (callId, body) => {
          const own = this.tickets.get(callId);
          if (own === undefined) return body();
          own.hand(body);
          return own.ran;
        },
        nestedRuns: (request) => this.nestedRun(request),
      });
      if (run.state.nextStep.module !== 'actor') return;
      let stepped = true;
      await run.step().catch((error: unknown) => {
        stepped = false;
        // The Actor saved itself stopped first; how the run goes on is the next agent-step's call.
        if (!this.cancelled) throw error;
      });
      // Every write of the step is committed but its hand-over commit: the next agent-step goes on
      // from the run as it is, without reading it back, and writes that commit with its own (issue
      // 31). Not with nested runs (their states are runs of their own).
      const session = this.input.session;
      const handOn =
        session !== undefined &&
        stepped &&
        !this.cancelled &&
        this.nested.size === 0 &&
        !this.input.stopSignal.aborted;
      if (!handOn) await buffer.writeHeld();
      await store.flush?.();
      if (this.cancelled) await markCancelled(store, runId);
      else if (handOn) session.keep(storedAfterStep(stored.header, run), buffer.takeHeld(runId));
    } finally {
      for (const own of this.tickets.values()) own.hand(undefined);
      for (const own of this.nested.values()) own.hand(null);
    }
  }

  /**
   * A module Call's nested agent, run as a child workflow: creates its run in the store (or finds
   * the one an earlier attempt created, reopened if a cancel or a stopping worker stopped it), hands
   * it to the workflow's next `nested-run` step, waits for the child workflow to end and returns the
   * nested run's final state. Undefined (run it in-process) for a Call the workflow did not announce.
   */
  private async nestedRun(request: NestedRunRequest): Promise<AgentState | undefined> {
    // Only this run's own module Calls (not those of a nested run that runs in-process below one).
    const own =
      request.parentRunId === this.input.runId ? this.nested.get(request.parentCallId) : undefined;
    if (own === undefined) return undefined;
    const { store } = this.input;
    const existing = await store.load(request.runId);
    if (existing === undefined) {
      await store.create(
        {
          runId: request.runId,
          parentRunId: request.parentRunId,
          parentCallId: request.parentCallId,
          createdAt: new Date().toISOString(),
          nestedModule: request.module,
        },
        request.state,
      );
    } else if (existing.status === 'completed') {
      return existing.state;
    } else if (existing.status === 'cancelled' || isAborted(existing.state.nextStep)) {
      await reopenStoredRun(store, request.runId);
    }
    own.hand(request.runId);
    const workflowId = await untilAborted(own.child, request.signal);
    if (workflowId === null) return undefined;
    let failure: unknown;
    try {
      await untilAborted(this.input.awaitChild(workflowId), request.signal);
    } catch (error) {
      if (request.signal?.aborted === true) throw error;
      failure = error;
    }
    const final = await store.load(request.runId);
    const stoppedShort =
      failure !== undefined ||
      final === undefined ||
      final.status === 'cancelled' ||
      final.state.nextStep.module !== 'done' ||
      isAborted(final.state.nextStep);
    // A child cancelled with its parent (DBOS cancels both) may end before the parent's own cancel
    // reaches this step: wait for it, so the Call is aborted (not recorded) rather than failed.
    if (stoppedShort && (await abortedWithin(request.signal, PARENT_CANCEL_GRACE_MS))) {
      throw (request.signal as AbortSignal).reason;
    }
    if (final !== undefined && final.state.nextStep.module === 'done') return final.state;
    throw new NestedAgentStoppedError({
      chain: request.module.chain,
      reason: final?.status ?? 'failed',
      detail:
        `its child workflow ${workflowId} ended with nested run ${request.runId} ` +
        `${final?.status ?? 'missing from the store'}; the worker's log says why, and ` +
        `\`ideact runs resume ${request.parentRunId}\` runs the Call again, continuing the nested run`,
      cause: failure,
    });
  }
}

/** How long a module Call whose child stopped short waits for its own cancellation to arrive. */
const PARENT_CANCEL_GRACE_MS = 5_000;

/** True once `signal` aborts, false if it has not after `ms`. */
async function abortedWithin(signal: AbortSignal | undefined, ms: number): Promise<boolean> {
  if (signal === undefined) return false;
  if (signal.aborted) return true;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve(false);
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

function nestedTicket(): NestedTicket {
  let hand!: NestedTicket['hand'];
  let started!: NestedTicket['started'];
  let failed!: NestedTicket['failed'];
  const handed = new Promise<string | null>((resolve) => {
    hand = resolve;
  });
  const child = new Promise<string | null>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  child.catch(() => undefined); // read by the Call that handed off, if it still waits
  return { handed, hand, child, started, failed };
}

function ticket(): Ticket {
  let hand!: Ticket['hand'];
  let done!: Ticket['done'];
  const body = new Promise<(() => Promise<void>) | undefined>((resolve) => {
    hand = resolve;
  });
  const ran = new Promise<void>((resolve, reject) => {
    done = (error) => (error === undefined ? resolve() : reject(error));
  });
  return { body, hand, ran, done };
}

/**
 * The run as a store would load it after an Actor step that committed everything: its state, the
 * status that state means, the attempts it recorded, and as open Calls those started without a
 * result in the state (none, unless a Call was cut short).
 */
function storedAfterStep(header: RunHeader, run: Run): StoredRun {
  const state = run.state;
  const attempts = run.recordedAttempts();
  const ended = endedCallIds(state);
  const openCalls = Object.entries(attempts)
    .filter(([callId]) => !ended.has(callId))
    .map(([callId, attempt]) => ({ callId, attempt }));
  return { header, status: statusOf(state), state, attempts, openCalls };
}
