import type { ValidationIssue } from '../errors/validation-issue';
import type { Idea } from './idea';
import { isInputMessage } from './data-view';
import { findIdeaInput } from './invert-idea';
import { validateJson } from './json-validation';
import type { Message } from './message';

/**
 * An Idea's context with its input message replaced by one holding `value`, checked against the
 * Idea's input schema first (issues non-empty: the context is left unchanged). Shared by `ideact run
 * --input` and the playground's forms, so both accept exactly what the Idea declares.
 */
export function ideaContextWithInput(
  idea: Idea,
  value: unknown,
): { context: Message[]; issues: ValidationIssue[] } {
  const schema = findIdeaInput(idea)?.schema;
  if (schema !== undefined) {
    const issues = validateJson(schema, value);
    if (issues.length > 0) return { context: idea.context, issues };
  }
  const message: Message =
    schema === undefined
      ? { type: 'input', input: value }
      : { type: 'input', input: value, schema };
  const rest = idea.context.filter((item) => !isInputMessage(item));
  const first = idea.context.findIndex(isInputMessage);
  const context =
    first === -1 ? [...rest, message] : [...rest.slice(0, first), message, ...rest.slice(first)];
  return { context, issues: [] };
}
