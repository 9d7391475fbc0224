import type { Agent } from '../runtime/loop/agent';
import type { RunHeader, RunStore } from '../runtime/run-store';
import { markCancelled } from './agent-step';

/** What an {@link ActorSession} needs from its workflow. @internal */
export interface ActorSessionInput {
  store: RunStore;
  runId: string;
  agentFor: (header: RunHeader) => Promise<Agent>;
  /** Aborted when the worker stops: the session's Calls are abandoned (their steps never record). */
  stopSignal: AbortSignal;
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
  private readonly controller = new AbortController();
  private actor?: Promise<void>;
  private cancelled = false;

  constructor(
    private readonly input: ActorSessionInput,
    callIds: readonly string[],
  ) {
    for (const callId of callIds) this.tickets.set(callId, ticket());
    input.stopSignal.addEventListener('abort', () =>
      this.controller.abort(input.stopSignal.reason),
    );
  }

  /**
   * The body of the DBOS step of Call `callId`: starts the Actor if needed, runs the Call's body when
   * the Actor hands it over, and resolves once it ran (or the Actor ended without it).
   */
  async step(callId: string, cancelSignal: AbortSignal | undefined): Promise<string> {
    cancelSignal?.addEventListener('abort', () => {
      this.cancelled = true;
      this.controller.abort(cancelSignal.reason);
    });
    this.actor ??= this.runActor();
    const own = this.tickets.get(callId) as Ticket;
    const body = await own.body;
    if (body !== undefined) {
      try {
        await body();
        own.done();
      } catch (error) {
        own.done(error);
        // A stopping worker abandons the step: never recorded, the next worker runs it again.
        if (this.input.stopSignal.aborted) return new Promise(() => undefined);
        throw error;
      }
    }
    if (this.input.stopSignal.aborted) return new Promise(() => undefined);
    return callId;
  }

  /**
   * Settles when the Actor has ended (it was never started when every step was replayed); a
   * cancelled one has marked its run `cancelled`.
   */
  async ended(): Promise<void> {
    await this.actor?.catch(() => undefined);
  }

  private async runActor(): Promise<void> {
    const { store, runId } = this.input;
    try {
      const stored = await store.load(runId);
      if (stored === undefined || stored.status === 'cancelled') return;
      const agent = await this.input.agentFor(stored.header);
      const run = await agent.resumeRun(runId, {
        store,
        eagerCalls: false,
        signal: this.controller.signal,
        callGate: (callId, body) => {
          const own = this.tickets.get(callId);
          if (own === undefined) return body();
          own.hand(body);
          return own.ran;
        },
      });
      if (run.state.nextStep.module !== 'actor') return;
      await run.step().catch((error: unknown) => {
        // The Actor saved itself stopped first; how the run goes on is the next agent-step's call.
        if (!this.cancelled) throw error;
      });
      await store.flush?.();
      if (this.cancelled) await markCancelled(store, runId);
    } finally {
      for (const own of this.tickets.values()) own.hand(undefined);
    }
  }
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
