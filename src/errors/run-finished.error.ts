import { InputError } from './input.error';

/**
 * A run that completed (stop reason `output` or `no_calls`) was asked to be resumed or cancelled:
 * there is nothing left to do or to stop. A run that stopped for any other reason can be resumed.
 */
export class RunFinishedError extends InputError {
  static override readonly code = 'RUN_FINISHED';

  /** The completed run. */
  readonly runId: string;

  constructor(options: { runId: string; action: 'resume' | 'cancel'; stopReason?: string }) {
    super({
      message:
        `Run "${options.runId}" has completed${options.stopReason === undefined ? '' : ` (stop reason ${options.stopReason})`}, so there is nothing to ${options.action}. ` +
        'Start a new run, or continue it with a new task (`agent.resume(runId, { task })`).',
    });
    this.runId = options.runId;
  }
}
