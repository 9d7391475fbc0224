import { ConfigurationError } from './configuration.error';

/**
 * `startWorker()` was called while a worker of this process is running: DBOS, the engine under the
 * worker, is one instance per process, so a process runs one worker (with any concurrency).
 */
export class WorkerAlreadyRunningError extends ConfigurationError {
  static override readonly code = 'WORKER_ALREADY_RUNNING';

  constructor(options: { cause?: unknown } = {}) {
    super({
      message:
        'A worker is already running in this process (DBOS, the durable engine under it, is one per process). ' +
        'Stop it first (`await worker.stop()`), raise its `concurrency`, or start another process.',
      cause: options.cause,
    });
  }
}
