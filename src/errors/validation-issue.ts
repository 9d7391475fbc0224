/** One reason a value does not conform to a schema: where (JSON Pointer into the value) and why. */
export interface ValidationIssue {
  /** JSON Pointer of the offending value, `''` for the root (e.g. `/calls/0/city`). */
  path: string;
  /** What is wrong, in ajv's words plus the allowed values where useful. */
  message: string;
}

/**
 * Formats issues one per line, `path: message` (`(root)` for the root). It lives with the errors
 * because error messages are built from it; the protocol re-exports it.
 */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
    .join('\n');
}
