import { ExecutionError } from './execution.error';

/**
 * A step module (Prompter, Generator, Discriminator, Actor) threw an error that is not an ideact
 * error. The run stops with reason `error`, the step is rolled back (so the run can resume), and
 * `state.nextStep.error` records this code; `cause` is the original error.
 */
export class StepFailedError extends ExecutionError {
  static override readonly code = 'STEP_FAILED';

  /** The step module that threw, e.g. `actor`. */
  readonly step: string;

  constructor(options: { step: string; cause: unknown }) {
    const detail = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super({
      message:
        `The ${options.step} step failed: ${detail}. The step was rolled back, so the run can be ` +
        'resumed once the cause is fixed; a custom step module should not throw for expected conditions.',
      cause: options.cause,
    });
    this.step = options.step;
  }
}
