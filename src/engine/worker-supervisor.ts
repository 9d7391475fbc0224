import { startWorker, type Worker, type WorkerOptions } from './worker';

/** Options of {@link superviseWorker}: the worker's, and how it is started again. */
export interface SupervisedWorkerOptions extends WorkerOptions {
  /** How long to wait before starting the worker again, and between attempts (default 1000 ms). */
  restartDelayMs?: number;
  /** Told each time a new worker took over from one that stopped on its own. */
  onRestart?: (worker: Worker) => void;
}

/** A worker that is started again whenever it stops on its own. */
export interface SupervisedWorker {
  /** The worker running now (a new one after each restart: a new executor id). */
  readonly worker: Worker;
  /** Stops the worker for good (see `Worker.stop`). */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

/**
 * Starts a worker and starts it again whenever it stops on its own (issue 31): a worker stops when
 * it loses its lock connection, e.g. when PostgreSQL restarts, because other workers may take its
 * runs over. The new worker (a new executor) takes over the runs the old one left, so the runs go
 * on once the database is back; until then it tries again every `restartDelayMs`. `ideact worker`
 * runs its worker this way.
 */
export async function superviseWorker(options: SupervisedWorkerOptions): Promise<SupervisedWorker> {
  const delay = options.restartDelayMs ?? 1_000;
  let current = await startWorker(options);
  let stopping = false;
  let restarting: Promise<void> = Promise.resolve();
  const restart = async (lost: Worker): Promise<void> => {
    await lost.stop().catch((error: unknown) => options.onError?.(error));
    while (!stopping) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (stopping) return;
      try {
        current = await startWorker(options);
        watch(current);
        options.onRestart?.(current);
        return;
      } catch (error) {
        options.onError?.(error);
      }
    }
  };
  const watch = (worker: Worker): void => {
    worker.signal.addEventListener(
      'abort',
      () => {
        if (!stopping) restarting = restart(worker);
      },
      { once: true },
    );
  };
  watch(current);
  return {
    get worker() {
      return current;
    },
    async stop(stopOptions) {
      stopping = true;
      await restarting;
      await current.stop(stopOptions);
    },
  };
}
