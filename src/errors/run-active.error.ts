import { InputError } from './input.error';

/**
 * A run was asked to be resumed while a worker runs it or it waits on the queue: two executions of
 * one run must never overlap, so the run goes on as it is (or is cancelled first).
 */
export class RunActiveError extends InputError {
  static override readonly code = 'RUN_ACTIVE';

  /** The run. */
  readonly runId: string;
  /** Its DBOS workflow that is queued or running. */
  readonly workflowId: string;

  constructor(options: { runId: string; workflowId: string; workflowStatus: string }) {
    super({
      message:
        `Run "${options.runId}" is still on the queue or running (workflow "${options.workflowId}" is ${options.workflowStatus}), so it cannot be resumed now. ` +
        'Wait for it to stop (`ideact runs show`), or cancel it first (`ideact runs cancel`).',
    });
    this.runId = options.runId;
    this.workflowId = options.workflowId;
  }
}
