import type { Idea } from './idea';
import { findIdeaProblems, messageProblems } from './idea-problems';
import type { Message } from './message';

/**
 * Structural check of an Idea value (`{ name?, description?, context: Message[], schema, solution?, settings? }`)
 * read from `source` (a file path or label used in messages), including its schemas' local `$ref`s
 * (none dangling, none in a cycle), its depth (at most MAX_JSON_DEPTH levels) and its Tools' meta-field
 * names (`_module` and `_delegate`, `_imports` and `_scopes`: both written must agree, R-DEL-2,
 * R-SCOPE-2). Returns it typed;
 * throws `InvalidIdeaError` naming the JSON path, e.g. `at /context/2/type: unknown message type
 * "foo"` or `at /schema/properties/a/$ref: …` — the first of `findIdeaProblems` (which lists them all).
 */
export function parseIdea(value: unknown, source: string): Idea {
  const [first] = findIdeaProblems(value, source);
  if (first !== undefined) throw first;
  return value as Idea;
}

/**
 * Structural check of one context message (the required fields of its type); `fail` reports the
 * JSON path and the reason of its first problem (`messageProblems` lists them all). Shared with other
 * readers of messages. @internal
 */
export function checkMessage(
  value: unknown,
  jsonPath: string,
  fail: (jsonPath: string, reason: string) => never,
): asserts value is Message {
  const [first] = messageProblems(value, jsonPath);
  if (first !== undefined) fail(first.jsonPath, first.reason);
}
