import type { EngineOptions } from './engine-options';
import { RunQueue, type EnqueuedRun, type EnqueueOptions } from './run-queue';
import type { WorkerRunResult } from './worker-run-result';

/** Options of {@link enqueueRun}: where (the database, queue, schemas) and what (the run). */
export interface EnqueueRunOptions extends EngineOptions, EnqueueOptions {}

/**
 * Creates a run in the database's run store and puts it on the worker queue (issue 18); resolves to
 * its id once both are committed. A one-off: it opens and closes its connections (enqueue many runs
 * through one `new RunQueue(...)`).
 */
export async function enqueueRun(options: EnqueueRunOptions): Promise<EnqueuedRun> {
  const queue = new RunQueue(options);
  try {
    return await queue.enqueue(options);
  } finally {
    await queue.close();
  }
}

/**
 * Waits for a queued run to stop and resolves to its {@link WorkerRunResult} (see `RunQueue.wait`):
 * a one-off that opens and closes its connections.
 */
export async function waitForRun<TOutput = unknown>(
  runId: string,
  options: EngineOptions & { timeoutMs?: number },
): Promise<WorkerRunResult<TOutput>> {
  const queue = new RunQueue(options);
  try {
    return await queue.wait<TOutput>(runId, options);
  } finally {
    await queue.close();
  }
}
