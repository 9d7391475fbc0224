/**
 * One queue per run id: the work queued for a run runs one at a time, in order (appends of a run must
 * not interleave their writes); different runs proceed in parallel. A failed task does not block the
 * next one.
 */
export class RunQueues {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` after everything queued for `runId` before it; resolves or rejects with it. */
  run<T>(runId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(runId) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(runId, tail);
    // Forget idle runs, so a long-lived store does not keep one entry per run it ever saw.
    void tail.then(() => {
      if (this.tails.get(runId) === tail) this.tails.delete(runId);
    });
    return result;
  }
}
