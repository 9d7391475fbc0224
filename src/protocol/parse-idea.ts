import { InvalidIdeaError } from '../errors/invalid-idea.error';
import type { Idea } from './idea';
import { findJsonDepthViolation, MAX_JSON_DEPTH } from './json-depth';
import type { JSONSchema } from './json-schema';
import { findLocalReferenceProblem } from './local-references';
import { isPlainObject } from '../internal/is-plain-object';
import type { Message } from './message';
import { checkSchemaToolNames } from './tool-meta-names';
import { outputWriteProblem } from './output-write';

const MESSAGE_TYPES = ['system', 'text', 'data', 'input', 'state', 'result'] as const;

/**
 * Structural check of an Idea value (`{ name?, description?, context: Message[], schema, solution? }`)
 * read from `source` (a file path or label used in messages), including its schemas' local `$ref`s
 * (none dangling, none in a cycle), its depth (at most MAX_JSON_DEPTH levels) and its Tools' meta-field
 * names (`_module` and `_delegate`, `_imports` and `_scopes`: both written must agree, R-DEL-2,
 * R-SCOPE-2). Returns it typed;
 * throws `InvalidIdeaError` naming the JSON path, e.g. `at /context/2/type: unknown message type
 * "foo"` or `at /schema/properties/a/$ref: …`.
 */
export function parseIdea(value: unknown, source: string): Idea {
  const fail = (jsonPath: string, reason: string): never => {
    throw new InvalidIdeaError({ source, jsonPath, reason });
  };
  if (!isPlainObject(value))
    fail('', `expected an object with "context" and "schema", got ${kindOf(value)}`);
  // Checked first and without recursion: deeper data would overflow the stack in the checks below.
  const tooDeep = findJsonDepthViolation(value);
  if (tooDeep !== undefined) {
    fail(tooDeep.jsonPath, `nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep`);
  }
  const idea = value as Record<string, unknown>;
  for (const key of ['name', 'description'] as const) {
    if (idea[key] !== undefined && typeof idea[key] !== 'string') {
      fail(`/${key}`, `expected a string, got ${kindOf(idea[key])}`);
    }
  }
  if (!Array.isArray(idea.context)) {
    fail('/context', `expected an array of messages, got ${kindOf(idea.context)}`);
  }
  (idea.context as unknown[]).forEach((message, index) =>
    checkMessage(message, `/context/${index}`, fail),
  );
  if (!isPlainObject(idea.schema)) {
    fail('/schema', `expected a JSON Schema object, got ${kindOf(idea.schema)}`);
  }
  checkReferences(idea.schema as JSONSchema, '/schema', fail);
  // R-DEL-2 / R-SCOPE-2: a Tool writing `_module` and `_delegate` (or `_imports` and `_scopes`) differently.
  checkSchemaToolNames(idea.schema as JSONSchema, { source, jsonPath: '/schema' });
  (idea.context as Array<{ schema?: unknown }>).forEach((message, index) => {
    if (isPlainObject(message.schema)) {
      checkReferences(message.schema as JSONSchema, `/context/${index}/schema`, fail);
    }
  });
  return idea as unknown as Idea;
}

/** A dangling or cyclic local `$ref` fails here, naming the Idea, the JSON path and the ref. */
function checkReferences(
  schema: JSONSchema,
  jsonPath: string,
  fail: (jsonPath: string, reason: string) => never,
): void {
  const problem = findLocalReferenceProblem(schema);
  if (problem !== undefined) fail(`${jsonPath}${problem.jsonPath}/$ref`, problem.reason);
}

/**
 * Structural check of one context message (the required fields of its type); `fail` reports the
 * JSON path and the reason. Shared with other readers of messages. @internal
 */
export function checkMessage(
  value: unknown,
  jsonPath: string,
  fail: (jsonPath: string, reason: string) => never,
): asserts value is Message {
  if (!isPlainObject(value)) fail(jsonPath, `expected a message object, got ${kindOf(value)}`);
  const message = value as Record<string, unknown>;
  const type = message.type;
  if (!(MESSAGE_TYPES as readonly unknown[]).includes(type)) {
    fail(
      `${jsonPath}/type`,
      `unknown message type ${JSON.stringify(type) ?? 'undefined'} (expected ${MESSAGE_TYPES.join(', ')})`,
    );
  }
  const expectString = (key: string, optional: boolean): void => {
    const item = message[key];
    if (item === undefined && optional) return;
    if (typeof item !== 'string')
      fail(`${jsonPath}/${key}`, `expected a string, got ${kindOf(item)}`);
  };
  const expectPresent = (key: string): void => {
    if (!(key in message) || message[key] === undefined) {
      fail(`${jsonPath}/${key}`, `a "${String(type)}" message needs "${key}"`);
    }
  };
  const expectSchema = (): void => {
    if (message.schema !== undefined && !isPlainObject(message.schema)) {
      fail(`${jsonPath}/schema`, `expected a JSON Schema object, got ${kindOf(message.schema)}`);
    }
  };
  switch (type) {
    case 'system':
    case 'text':
      expectString('text', false);
      if (
        type === 'text' &&
        message.role !== undefined &&
        message.role !== 'user' &&
        message.role !== 'assistant'
      ) {
        fail(
          `${jsonPath}/role`,
          `expected "user" or "assistant", got ${JSON.stringify(message.role)}`,
        );
      }
      break;
    case 'data':
    case 'input':
    case 'state':
      expectPresent(type);
      expectString('kind', true);
      expectString('description', true);
      expectString('_instance', true);
      expectSchema();
      checkWriteFields(message, jsonPath, fail);
      break;
    case 'result': {
      if (!isPlainObject(message.call))
        fail(`${jsonPath}/call`, `expected a call object, got ${kindOf(message.call)}`);
      const call = message.call as Record<string, unknown>;
      if (typeof call._tool !== 'string') {
        fail(`${jsonPath}/call/_tool`, `expected a tool name string, got ${kindOf(call._tool)}`);
      }
      if (message.error !== undefined) {
        const error = message.error;
        if (
          !isPlainObject(error) ||
          typeof error.code !== 'string' ||
          typeof error.message !== 'string'
        ) {
          fail(`${jsonPath}/error`, 'expected { "code": string, "message": string }');
        }
      }
      break;
    }
  }
}

/** R-OUT-5: the write metadata of a data message, when it has any, must be readable. */
function checkWriteFields(
  message: Record<string, unknown>,
  jsonPath: string,
  fail: (jsonPath: string, reason: string) => never,
): void {
  const problem = outputWriteProblem(message as unknown as Message);
  if (problem !== undefined) fail(`${jsonPath}/${problem.key}`, problem.reason);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}
