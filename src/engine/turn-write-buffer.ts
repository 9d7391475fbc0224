import type { JournalEntry } from '../runs/run-store';
import { HeldWritesStore } from './held-writes-store';

/**
 * A worker's run store during one model turn's DBOS step (issue 31): the turn's commits (Prompter,
 * Generator, Discriminator, an Actor step without Calls) are held and written together when the step
 * flushes, before DBOS records the step: one round trip instead of one per module. A crash before
 * that loses the turn, which the next worker runs again from the store, as it would after a crash
 * mid-turn anyway (a model request repeats only if its turn did not commit). Reads flush first.
 * Never used around Calls: a Call's start and result are written before its step may end.
 * @internal
 */
export class TurnWriteBuffer extends HeldWritesStore {
  private pending: Array<{ runId: string; entries: JournalEntry[] }> = [];

  /** Holds the entries until `flush` (the step's end, or a read). */
  async append(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    const last = this.pending[this.pending.length - 1];
    if (last !== undefined && last.runId === runId) last.entries.push(...entries);
    else this.pending.push({ runId, entries: [...entries] });
  }

  /** Writes what is held, one append per run in order. */
  async writeHeld(): Promise<void> {
    while (this.pending.length > 0) {
      const next = this.pending[0] as { runId: string; entries: JournalEntry[] };
      await this.store.append(next.runId, next.entries);
      this.pending.shift();
    }
  }
}
