import type { ValidationIssue } from './validation-issue';
import { formatIssues } from './validation-issue';
import { ConfigurationError } from './configuration.error';

/** A ScriptedProvider entry does not satisfy the schema of the request it answers (a test bug). */
export class ScriptedSolutionError extends ConfigurationError {
  static override readonly code = 'SCRIPTED_SOLUTION_INVALID';

  /** Zero-based index of the script entry. */
  readonly index: number;
  /** Why the entry does not satisfy the request's schema. */
  readonly issues: readonly ValidationIssue[];

  constructor(options: { index: number; schemaName: string; issues: readonly ValidationIssue[] }) {
    super({
      message:
        `ScriptedProvider entry #${options.index} does not satisfy schema "${options.schemaName}":\n` +
        `${formatIssues(options.issues)}\n` +
        'Fix the scripted solution, or pass { validate: false } to script invalid replies on purpose.',
    });
    this.index = options.index;
    this.issues = options.issues;
  }
}
