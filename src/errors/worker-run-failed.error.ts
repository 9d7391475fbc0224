import { ExecutionError } from './execution.error';

/**
 * The durable workflow of a run ended in failure instead of stopping the run: the worker could not
 * build the run's agent, load the run, or reach its database. The run's state is kept as it was.
 */
export class WorkerRunFailedError extends ExecutionError {
  static override readonly code = 'WORKER_RUN_FAILED';

  /** The run whose workflow failed. */
  readonly runId: string;
  /** The DBOS workflow id (the run id, or `<runId>:<n>` for the n-th resume). */
  readonly workflowId: string;

  constructor(options: { runId: string; workflowId: string; detail: string; cause?: unknown }) {
    super({
      message:
        `The worker workflow "${options.workflowId}" of run "${options.runId}" failed: ${options.detail}. ` +
        'Fix the cause (the worker log names it), then continue the run with `ideact runs resume` (or `runQueue.resume(runId)`).',
      cause: options.cause,
    });
    this.runId = options.runId;
    this.workflowId = options.workflowId;
  }
}
