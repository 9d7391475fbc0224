import type { ErrorObject, ValidateFunction } from 'ajv';
import type AjvClass from 'ajv';
import { InvalidSchemaError } from '../errors/invalid-schema.error';
import type { ValidationIssue } from '../errors/validation-issue';
import type { JSONSchema } from './json-schema';
import { snapshotCheck, type SnapshotCheck } from './json-snapshot-check';
import { discriminatedVesselSchema } from './discriminated-vessel-schema';
import { narrowAnyOfErrors } from './narrow-any-of';
import { mapSubschemas, type SchemaNode } from './schema-walk';

export { formatIssues, type ValidationIssue } from '../errors/validation-issue';

let ajvInstance: AjvClass | undefined;
let discriminatingInstance: AjvClass | undefined;

/** A new ajv with the formats: loaded on first use (ajv costs ~40 ms to load). */
function newAjv(options: import('ajv').Options): AjvClass {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (import cost) */
  const Ajv = (require('ajv') as typeof import('ajv')).default;
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const instance = new Ajv({ strict: false, validateFormats: true, ...options });
  addFormats(instance);
  return instance;
}

/** The shared ajv instance, created on the first validation. */
function ajv(): AjvClass {
  ajvInstance ??= newAjv({ allErrors: true });
  return ajvInstance;
}

/**
 * The ajv of the yes/no pre-checks ({@link compileVesselValidator}): it knows the `discriminator`
 * keyword and stops at the first error (the shared one reports every error and ignores it).
 */
function discriminatingAjv(): AjvClass {
  discriminatingInstance ??= newAjv({ allErrors: false, discriminator: true });
  return discriminatingInstance;
}

/**
 * Compiled validators keyed by the schema's JSON text, never by object identity: a schema edited in
 * place between two calls is a different schema and gets its own validator (validation stays pure).
 * Least recently used entries are dropped past the limit.
 */
const compiledByText = new Map<string, ValidateFunction>();
const TEXT_CACHE_LIMIT = 500;

/** The last schema compiled or found (a loop validates against one schema many times in a row). */
let lastText: string | undefined;
let lastValidate: ValidateFunction | undefined;

/**
 * Per schema object, a copy of it as last compiled and its validator: a caller that passes the same
 * object again is checked by comparing it with the copy (no allocation), cheaper than its JSON text;
 * an object edited in place differs from its copy and goes by its text (validation stays pure). From
 * its third use on, the comparison is a function generated from the copy (`snapshotCheck`): a schema
 * passed once costs no code generation, one passed on every request pays ~0.3 µs instead of ~2 µs.
 */
interface CompiledSchema {
  copy: unknown;
  validate: ValidateFunction;
  uses: number;
  check?: SnapshotCheck;
}
const compiledByObject = new WeakMap<object, CompiledSchema>();
/** Uses of one schema object after which its comparison is generated. */
const GENERATE_CHECK_AFTER = 3;

function compile(schema: JSONSchema): ValidateFunction {
  const known =
    typeof schema === 'object' && schema !== null ? compiledByObject.get(schema) : undefined;
  if (known !== undefined && unchanged(schema, known)) return known.validate;
  const validate = compileByText(schema);
  if (typeof schema === 'object' && schema !== null) {
    compiledByObject.set(schema, { copy: structuredClone(schema), validate, uses: 0 });
  }
  return validate;
}

/** True when `schema` still equals the copy compiled from it. */
function unchanged(schema: JSONSchema, known: CompiledSchema): boolean {
  if (known.check !== undefined) return known.check(schema);
  known.uses += 1;
  if (known.uses === GENERATE_CHECK_AFTER) known.check = snapshotCheck(known.copy);
  return sameJson(schema, known.copy);
}

/** Deep equality of two JSON values (own enumerable keys, arrays in order), allocation-light. */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) {
    return false;
  }
  const isArray = Array.isArray(left);
  if (isArray !== Array.isArray(right)) return false;
  if (isArray) {
    const leftArray = left as unknown[];
    const rightArray = right as unknown[];
    const length = leftArray.length;
    if (length !== rightArray.length) return false;
    for (let index = 0; index < length; index++) {
      if (!sameJson(leftArray[index], rightArray[index])) return false;
    }
    return true;
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const keys = Object.keys(leftRecord);
  const length = keys.length;
  if (length !== Object.keys(rightRecord).length) return false;
  for (let index = 0; index < length; index++) {
    const key = keys[index] as string;
    const value = rightRecord[key];
    if (value === undefined && !Object.prototype.hasOwnProperty.call(rightRecord, key))
      return false;
    if (!sameJson(leftRecord[key], value)) return false;
  }
  return true;
}

function compileByText(schema: JSONSchema, text = JSON.stringify(schema)): ValidateFunction {
  if (text === lastText && lastValidate !== undefined) return lastValidate;
  let validate = compiledByText.get(text);
  if (validate !== undefined) {
    compiledByText.delete(text);
    compiledByText.set(text, validate);
    lastText = text;
    lastValidate = validate;
    return validate;
  }
  try {
    // `$id`s would collide in ajv's registry across equal schemas; validation does not need them.
    validate = ajv().compile(stripIds(schema) as object);
  } catch (error) {
    throw new InvalidSchemaError({
      message: `Invalid JSON Schema: ${(error as Error).message}. Fix the schema so that it is valid JSON Schema (draft-07 or 2020-12 keywords).`,
      cause: error,
    });
  }
  if (compiledByText.size >= TEXT_CACHE_LIMIT) {
    const oldest = compiledByText.keys().next().value;
    if (oldest !== undefined) compiledByText.delete(oldest);
  }
  compiledByText.set(text, validate);
  lastText = text;
  lastValidate = validate;
  return validate;
}

/** The schema without `$id`/`$schema` in schema positions (values of `const`, `enum`… are data: kept). */
function stripIds(schema: SchemaNode): SchemaNode {
  if (typeof schema === 'boolean') return schema;
  const { $id: _id, $schema: _schema, ...rest } = mapSubschemas(schema, stripIds);
  return rest;
}

function toIssue(error: ErrorObject): ValidationIssue {
  let message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message += `: ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
  } else if (error.keyword === 'const') {
    message += `: ${JSON.stringify(params.allowedValue)}`;
  } else if (error.keyword === 'additionalProperties') {
    message += `: "${String(params.additionalProperty)}"`;
  }
  return { path: error.instancePath, message };
}

/**
 * Validates `value` against `schema` with ajv (compiled once per schema, cached). Returns the issues;
 * an empty array means valid. A failed `anyOf` whose intended branch is known (the one whose `_tool`
 * or other constant the value names, or the typed side of a `†reference` param) reports that
 * branch's issues only; an unknown constant is one issue listing the known ones. Throws
 * `InvalidSchemaError` when the schema itself is not valid.
 */
export function validateJson(schema: JSONSchema, value: unknown): ValidationIssue[] {
  return issuesOf(compile(schema), schema, value);
}

/** Checks `value` against one schema; returns its issues (empty when valid). */
export type JsonValidator = (value: unknown) => ValidationIssue[];

/**
 * Compiles `schema` once and returns its validator, for a hot loop that checks many values against
 * one schema it will not change (an agent's Vessel schema, every turn): `validateJson` instead keys
 * its cache by the schema's text, which costs a `JSON.stringify` of the schema per call. The
 * validator checks against the schema as it was when compiled. Throws `InvalidSchemaError`.
 */
export function compileValidator(schema: JSONSchema): JsonValidator {
  const validate = compile(schema);
  const snapshot = structuredClone(schema);
  return (value) => issuesOf(validate, snapshot, value);
}

/**
 * The validator of a schema its caller built and never changes (the agent's Vessel schema, made per
 * Toolkit and output): compiled by its text alone, so a new schema object costs one
 * `JSON.stringify` and no copies (`compileValidator` clones it twice: for the object cache and the
 * snapshot). Throws `InvalidSchemaError`. @internal
 */
export function compileOwnedValidator(schema: JSONSchema): JsonValidator {
  const validate = compileByText(schema);
  return (value) => issuesOf(validate, schema, value);
}

/** Pre-checks of Vessel schemas by their text (null: the schema has none); at most 100 kept. */
const preChecksByText = new Map<string, ValidateFunction | null>();
const PRE_CHECK_LIMIT = 100;

/**
 * {@link compileOwnedValidator} for an agent's Vessel schema, with the same issues, faster for a valid
 * Vessel: a value is first checked against the schema's discriminated copy
 * ({@link discriminatedVesselSchema}: each Call against its own Tool's branch only, stopping at the
 * first error); only a value that fails it is validated against the schema itself. Throws
 * `InvalidSchemaError`. @internal
 */
export function compileVesselValidator(schema: JSONSchema): JsonValidator {
  const text = JSON.stringify(schema);
  const validate = compileByText(schema, text);
  const preCheck = vesselPreCheck(schema, text);
  if (preCheck === null) return (value) => issuesOf(validate, schema, value);
  return (value) => (preCheck(value) ? [] : issuesOf(validate, schema, value));
}

/**
 * The compiled discriminated copy of a Vessel schema (true: the value is valid; false: ask the
 * schema's own validator), or null when it has none or ajv refuses it. @internal
 */
export function vesselPreCheck(
  schema: JSONSchema,
  text = JSON.stringify(schema),
): ValidateFunction | null {
  const known = preChecksByText.get(text);
  if (known !== undefined) return known;
  const copy = discriminatedVesselSchema(schema, text);
  let preCheck: ValidateFunction | null = null;
  if (copy !== undefined) {
    try {
      preCheck = discriminatingAjv().compile(stripIds(copy) as object);
    } catch {
      // A shape ajv's discriminator does not take: the schema's own validator does all the work.
      preCheck = null;
    }
  }
  if (preChecksByText.size >= PRE_CHECK_LIMIT) {
    const oldest = preChecksByText.keys().next().value;
    if (oldest !== undefined) preChecksByText.delete(oldest);
  }
  preChecksByText.set(text, preCheck);
  return preCheck;
}

/**
 * The validator of `schema` for one use — one request and its repairs — during which the schema does
 * not change: compiled once (cached by text, like `validateJson`), without `compileValidator`'s copy
 * of the schema. Throws `InvalidSchemaError`. @internal
 */
export function validatorFor(schema: JSONSchema): JsonValidator {
  const validate = compile(schema);
  return (value) => issuesOf(validate, schema, value);
}

function issuesOf(
  validate: ValidateFunction,
  schema: JSONSchema,
  value: unknown,
): ValidationIssue[] {
  if (validate(value)) return [];
  const errors = [...(validate.errors ?? [])];
  if (!errors.some((error) => error.keyword === 'anyOf')) return errors.map(toIssue);
  return narrowAnyOfErrors(errors, schema, value, revalidate, toIssue);
}

/** Validation against a schema derived from a branch; undefined when it does not compile. */
function revalidate(schema: JSONSchema, value: unknown): ValidationIssue[] | undefined {
  try {
    return validateJson(schema, value);
  } catch {
    return undefined;
  }
}
