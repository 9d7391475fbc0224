import type { JournalEntry } from '../runs/run-store';
import { HeldWritesStore } from './held-writes-store';

/**
 * A worker's run store during one Actor step (issue 31): every write goes through at once (a Call's
 * start before it runs, its result before its DBOS step is recorded), except the Actor's last
 * commit, the one that only hands the run to the next turn (no nodes, next step the Prompter). That
 * one is held, so the session can hand it to the next model turn's step, whose append carries it
 * with the turn's commits: one round trip per turn fewer. A crash before then loses only that
 * commit: the run is then stored at its Actor step with every result recorded, which the next worker
 * runs to the same commit (no Call runs again). Any other write, and every read, writes it first.
 * @internal
 */
export class ActorEndBuffer extends HeldWritesStore {
  private held: { runId: string; entries: JournalEntry[] } | undefined;

  /** Holds a hand-over commit; writes anything else (after what is held) at once. */
  async append(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    if (entries.length > 0 && entries.every(isHandOver)) {
      if (this.held !== undefined && this.held.runId === runId) this.held.entries.push(...entries);
      else {
        await this.writeHeld();
        this.held = { runId, entries: [...entries] };
      }
      return;
    }
    await this.writeHeld();
    await this.store.append(runId, entries);
  }

  /** What is held for `runId`, given up (the caller writes it, or lets the next step do so). */
  takeHeld(runId: string): JournalEntry[] {
    const held = this.held;
    if (held === undefined || held.runId !== runId) return [];
    this.held = undefined;
    return held.entries;
  }

  /** Writes what is held. */
  async writeHeld(): Promise<void> {
    const held = this.held;
    if (held === undefined) return;
    await this.store.append(held.runId, held.entries);
    this.held = undefined;
  }
}

/** A commit that only hands the run on: no nodes, the Prompter next, the run still running. */
function isHandOver(entry: JournalEntry): boolean {
  return (
    entry.type === 'commit' &&
    entry.nodes.length === 0 &&
    entry.nextStep.module === 'prompter' &&
    entry.status === 'running'
  );
}
