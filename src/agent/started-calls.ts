import type { IdeactError } from '../errors/ideact-error';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { NodeMetadata } from '../runs/agent-state';
import type { Limiter } from '../calls/concurrency';

/** What executing one Call of a Vessel produced, before it is recorded in the state. @internal */
export interface CallOutcome {
  /** `[result, ...statePatches]`. */
  messages: Message[];
  /** What the result node's metadata gains (usage, nested states, the original stack). */
  metadata: Partial<NodeMetadata>;
  /** The typed error when the Call failed. */
  failure?: IdeactError;
  /** True when the Call waits for a person's approval: it did not run, `messages` is empty. */
  held?: boolean;
}

/** One Call the Generator started while the model was still writing the Vessel. @internal */
export interface StartedCall {
  /** The Call's index in the Vessel's `calls`. */
  index: number;
  /** The Call as it was started (the Actor takes the outcome only for the same Call). */
  call: Call;
  /** The callId it reported in its events. */
  callId: string;
  /** Settles when the Call finished (never rejects: failures are results, R-CALL-5). */
  outcome: Promise<CallOutcome>;
}

/**
 * The Calls started early in the current turn (eager calls), kept by the run (not in its JSON state:
 * they are promises) from the Generator to the Actor, which records their outcomes instead of running
 * them again. @internal
 */
export class StartedCalls {
  private readonly entries = new Map<number, StartedCall>();
  /** The order in which the Calls finished, by outcome (R-OUT-8: writes are appended in it). */
  private readonly finished = new WeakMap<Promise<CallOutcome>, number>();
  private finishCount = 0;

  /** `limiter` caps the Calls of one Vessel that run at once, eager or not (`actorConcurrency`). */
  constructor(readonly limiter: Limiter) {}

  /** How many Calls started early in this turn. */
  get size(): number {
    return this.entries.size;
  }

  /** Records a Call that started. */
  add(entry: StartedCall): void {
    this.entries.set(entry.index, entry);
    void entry.outcome.then(() => {
      this.finished.set(entry.outcome, ++this.finishCount);
    });
  }

  /** 1 for the first started Call that finished, 2 for the next…; undefined while it runs. */
  finishOrder(entry: StartedCall): number | undefined {
    return this.finished.get(entry.outcome);
  }

  /** The started Calls in index order. */
  list(): StartedCall[] {
    return [...this.entries.values()].sort((left, right) => left.index - right.index);
  }

  /** Takes the Call started at `index` when it is the same Call (`undefined` otherwise). */
  take(index: number, call: Call): StartedCall | undefined {
    const entry = this.entries.get(index);
    if (entry === undefined || !sameJson(entry.call, call)) return undefined;
    this.entries.delete(index);
    return entry;
  }

  /**
   * Numbers the started Calls 0, 1, 2… in their order (they become a Vessel of their own when the
   * solution they came from failed validation) and returns them.
   */
  renumber(): Call[] {
    const entries = this.list();
    this.entries.clear();
    entries.forEach((entry, index) => this.entries.set(index, { ...entry, index }));
    return entries.map((entry) => entry.call);
  }

  /** Forgets every started Call (the turn ended, or its step failed). */
  clear(): void {
    this.entries.clear();
  }

  /** Settles when every Call still held has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.outcome));
  }
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
