import { ModelBehaviorError } from './model-behavior.error';

/**
 * The Vessel's final `output` does not validate against the run's output schema (R-LOOP-3). Shown to
 * the LLM as a `result` error so it can fix the output on the next turn.
 */
export class InvalidOutputError extends ModelBehaviorError {
  static override readonly code = 'INVALID_OUTPUT';

  /** One line per violation (`/path: message`). */
  readonly issues: string;

  constructor(options: { issues: string; cause?: unknown }) {
    super({
      message:
        `The final "output" does not match the output schema:\n${options.issues}\n` +
        'Return an output that conforms to the schema, or null to continue working.',
      cause: options.cause,
    });
    this.issues = options.issues;
  }
}
