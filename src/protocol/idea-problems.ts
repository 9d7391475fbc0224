import { InvalidIdeaError } from '../errors/invalid-idea.error';
import { isPlainObject } from '../internal/is-plain-object';
import { findJsonDepthViolation, MAX_JSON_DEPTH } from './json-depth';
import type { JSONSchema } from './json-schema';
import { findLocalReferenceProblems } from './local-references';
import type { Message } from './message';
import { outputWriteProblem } from './output-write';
import { schemaToolNameProblems } from './tool-meta-names';

const MESSAGE_TYPES = ['system', 'text', 'data', 'input', 'state', 'result'] as const;

/** One structural problem of a value: the JSON Pointer at fault and why (no trailing period). */
export interface StructureProblem {
  /** JSON Pointer of the offending value, `''` for the whole value. */
  jsonPath: string;
  /** What is wrong and how to fix it. */
  reason: string;
}

/**
 * Every structural problem of an Idea value read from `source` (a file path or label used in
 * messages), in document order, each an `InvalidIdeaError` naming its JSON path: the Idea's shape
 * (`{ name?, description?, context: Message[], schema, solution?, settings? }`), each message's required
 * fields, its schemas' local `$ref`s (none dangling, none in a cycle), its depth (at most
 * MAX_JSON_DEPTH levels) and its Tools' meta-field names (R-DEL-2, R-SCOPE-2). Empty when the value
 * is a well-formed Idea. `parseIdea` throws the first; `ideact validate` lists them all.
 */
export function findIdeaProblems(value: unknown, source: string): InvalidIdeaError[] {
  const problems: InvalidIdeaError[] = [];
  const add = (jsonPath: string, reason: string): void => {
    problems.push(new InvalidIdeaError({ source, jsonPath, reason }));
  };
  if (!isPlainObject(value)) {
    add('', `expected an object with "context" and "schema", got ${kindOf(value)}`);
    return problems;
  }
  // Checked first and without recursion: deeper data would overflow the stack in the checks below.
  const tooDeep = findJsonDepthViolation(value);
  if (tooDeep !== undefined) {
    add(tooDeep.jsonPath, `nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep`);
    return problems;
  }
  for (const key of ['name', 'description'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      add(`/${key}`, `expected a string, got ${kindOf(value[key])}`);
    }
  }
  for (const problem of settingsProblems(value.settings)) add(problem.jsonPath, problem.reason);
  const context = value.context;
  if (!Array.isArray(context)) {
    add('/context', `expected an array of messages, got ${kindOf(context)}`);
  } else {
    context.forEach((message: unknown, index) => {
      for (const problem of messageProblems(message, `/context/${index}`))
        add(problem.jsonPath, problem.reason);
    });
  }
  const schema = value.schema;
  if (!isPlainObject(schema)) {
    add('/schema', `expected a JSON Schema object, got ${kindOf(schema)}`);
  } else {
    for (const problem of referenceProblems(schema as JSONSchema, '/schema'))
      add(problem.jsonPath, problem.reason);
    // R-DEL-2 / R-SCOPE-2: a Tool writing `_module` and `_delegate` (or `_imports` and `_scopes`) differently.
    problems.push(...schemaToolNameProblems(schema as JSONSchema, { source, jsonPath: '/schema' }));
  }
  if (Array.isArray(context)) {
    context.forEach((message: unknown, index) => {
      if (isPlainObject(message) && isPlainObject(message.schema)) {
        const at = `/context/${index}/schema`;
        for (const problem of referenceProblems(message.schema as JSONSchema, at))
          add(problem.jsonPath, problem.reason);
      }
    });
  }
  return problems;
}

/** `settings`, when given: `{ model?: string, temperature?: number }` and nothing else. */
function settingsProblems(value: unknown): StructureProblem[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) {
    return [
      {
        jsonPath: '/settings',
        reason: `expected an object like { "model": "…", "temperature": 0.2 }, got ${kindOf(value)}`,
      },
    ];
  }
  const problems: StructureProblem[] = [];
  for (const key of Object.keys(value)) {
    if (key !== 'model' && key !== 'temperature') {
      problems.push({
        jsonPath: `/settings/${key}`,
        reason: 'unknown setting (the settings an Idea may set are "model" and "temperature")',
      });
    }
  }
  if (value.model !== undefined && typeof value.model !== 'string') {
    problems.push({
      jsonPath: '/settings/model',
      reason: `expected a model name string, got ${kindOf(value.model)}`,
    });
  }
  if (value.temperature !== undefined && typeof value.temperature !== 'number') {
    problems.push({
      jsonPath: '/settings/temperature',
      reason: `expected a number, got ${kindOf(value.temperature)}`,
    });
  }
  return problems;
}

/** Dangling or cyclic local `$ref`s of a schema at `jsonPath`, each at the path of its `$ref`. */
function referenceProblems(schema: JSONSchema, jsonPath: string): StructureProblem[] {
  return findLocalReferenceProblems(schema).map((problem) => ({
    jsonPath: `${jsonPath}${problem.jsonPath}/$ref`,
    reason: problem.reason,
  }));
}

/**
 * Every structural problem of one context message (the required fields of its type), in field
 * order; empty when it is a well-formed message. `checkMessage` (parse-idea) throws the first.
 */
export function messageProblems(value: unknown, jsonPath: string): StructureProblem[] {
  if (!isPlainObject(value)) {
    return [{ jsonPath, reason: `expected a message object, got ${kindOf(value)}` }];
  }
  const type = value.type;
  if (!(MESSAGE_TYPES as readonly unknown[]).includes(type)) {
    return [
      {
        jsonPath: `${jsonPath}/type`,
        reason: `unknown message type ${JSON.stringify(type) ?? 'undefined'} (expected ${MESSAGE_TYPES.join(', ')})`,
      },
    ];
  }
  const problems: StructureProblem[] = [];
  const add = (at: string, reason: string): void => {
    problems.push({ jsonPath: `${jsonPath}${at}`, reason });
  };
  const expectString = (key: string, optional: boolean): void => {
    const item = value[key];
    if (item === undefined && optional) return;
    if (typeof item !== 'string') add(`/${key}`, `expected a string, got ${kindOf(item)}`);
  };
  switch (type) {
    case 'system':
    case 'text':
      expectString('text', false);
      if (
        type === 'text' &&
        value.role !== undefined &&
        value.role !== 'user' &&
        value.role !== 'assistant'
      ) {
        add('/role', `expected "user" or "assistant", got ${JSON.stringify(value.role)}`);
      }
      break;
    case 'data':
    case 'input':
    case 'state': {
      if (!(type in value) || value[type] === undefined) {
        add(`/${type}`, `a "${String(type)}" message needs "${type}"`);
      }
      expectString('kind', true);
      expectString('description', true);
      expectString('_instance', true);
      if (value.schema !== undefined && !isPlainObject(value.schema)) {
        add('/schema', `expected a JSON Schema object, got ${kindOf(value.schema)}`);
      }
      // R-OUT-5: the write metadata of a data message, when it has any, must be readable.
      const write = outputWriteProblem(value as unknown as Message);
      if (write !== undefined) add(`/${write.key}`, write.reason);
      break;
    }
    case 'result': {
      const call = value.call;
      if (!isPlainObject(call)) {
        add('/call', `expected a call object, got ${kindOf(call)}`);
      } else if (typeof call._tool !== 'string') {
        add('/call/_tool', `expected a tool name string, got ${kindOf(call._tool)}`);
      }
      const error = value.error;
      if (
        error !== undefined &&
        (!isPlainObject(error) ||
          typeof error.code !== 'string' ||
          typeof error.message !== 'string')
      ) {
        add('/error', 'expected { "code": string, "message": string }');
      }
      break;
    }
  }
  return problems;
}

/** How a value is named in messages: `null`, `an array`, `nothing`, `a string`… */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}
