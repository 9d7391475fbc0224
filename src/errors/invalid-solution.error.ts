import type { ValidationIssue } from './validation-issue';
import { formatIssues } from './validation-issue';
import { ModelBehaviorError } from './model-behavior.error';

/**
 * The model's reply is still not valid JSON for the schema after every repair attempt (R-REQ-3).
 * Carries the last raw text and the validation issues so nothing the model wrote is lost.
 */
export class InvalidSolutionError extends ModelBehaviorError {
  static override readonly code = 'INVALID_SOLUTION';

  /** The last reply as the model wrote it (JSON text, or the unparseable text). */
  readonly rawText: string;
  /** Why the last reply was rejected (JSON Pointer paths into the reply). */
  readonly issues: readonly ValidationIssue[];
  /** The schema name the request used (`solution` when none was given). */
  readonly schemaName: string;
  /** How many replies were tried: 1 + the repairs. */
  readonly attempts: number;

  constructor(options: {
    rawText: string;
    issues: readonly ValidationIssue[];
    schemaName: string;
    attempts: number;
    cause?: unknown;
  }) {
    const shown = formatIssues(options.issues.slice(0, 5));
    const more = options.issues.length > 5 ? `\n… and ${options.issues.length - 5} more` : '';
    super({
      message:
        `The model's reply does not satisfy schema "${options.schemaName}" after ${options.attempts} attempt(s):\n` +
        `${shown}${more}\n` +
        'Use a more capable model, raise maxRepairs, or simplify the schema (describe fields, fewer constraints). ' +
        'The raw reply is in error.rawText.',
      cause: options.cause,
    });
    this.rawText = options.rawText;
    this.issues = options.issues;
    this.schemaName = options.schemaName;
    this.attempts = options.attempts;
  }
}
