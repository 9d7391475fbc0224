import { DecoratorError } from '../errors/decorator.error';
import { InvalidSchemaError } from '../errors/invalid-schema.error';
import type { JSONSchema } from '../protocol/json-schema';
import { validateJson } from '../protocol/json-validation';
import type { ClassConstructor } from './class-types';
import { recordDeclaredPosition } from './declared-position';
import { classChain } from './metadata-storage';
import { assertReflectMetadata } from './reflect-metadata-check';
import { PARAM_TYPES } from './param-types';

export { PARAM_TYPES } from './param-types';

const PARAMS_KEY = Symbol.for('ideact.param');

/** A JSON type `@Param({ type })` accepts. */
export type ParamType = (typeof PARAM_TYPES)[number];

/**
 * Options of `@Param()`: the param's JSON type, or its whole JSON Schema. Exactly one of them.
 */
export type ParamOptions =
  | {
      /** The JSON type: adds the class-validator rule of that type (`'integer'` → `@IsInt()`, …). */
      type: ParamType;
      schema?: never;
    }
  | {
      /** The param's JSON Schema: shown to the LLM and checked (ajv) on explicit calls. */
      schema: JSONSchema;
      type?: never;
    };

/** What `@Param()` recorded on a property (stored on the class, like `@Describe`). @internal */
export type ParamRecord =
  { kind: 'type'; type: ParamType } | { kind: 'schema'; schema: JSONSchema };

/**
 * States a param's type explicitly — `@Param({ type: 'string' })` or `@Param({ schema: {…} })` — for
 * a property no class-validator decorator types, in programs compiled without decorator metadata
 * (esbuild, tsx, SWC, Bun) too. It only records; `toolSchema()` and the params transformer use it.
 */
export function Param(options: ParamOptions): PropertyDecorator {
  return (target, propertyKey) => {
    const type = (typeof target === 'function' ? target : target.constructor) as ClassConstructor;
    const where = `${type.name}.${String(propertyKey)}`;
    assertReflectMetadata('@Param', where);
    if (typeof target === 'function' || typeof propertyKey !== 'string') {
      throw new DecoratorError({
        decorator: '@Param',
        target: where,
        problem: 'only instance properties with string keys can be params.',
        solutions: ['Put @Param on an instance property of the tool, params or output class.'],
      });
    }
    const record = recordOf(options, where);
    const own = ownParams(type);
    if (own.has(propertyKey)) {
      throw new DecoratorError({
        decorator: '@Param',
        target: where,
        problem: 'applied twice to the same property.',
        solutions: ['Keep one @Param per property.'],
      });
    }
    own.set(propertyKey, record);
    recordDeclaredPosition(type, propertyKey);
  };
}

function recordOf(options: unknown, where: string): ParamRecord {
  const given =
    typeof options === 'object' && options !== null && !Array.isArray(options)
      ? (options as { type?: unknown; schema?: unknown })
      : undefined;
  const solutions = [
    `State the JSON type: @Param({ type: 'string' }) (or ${PARAM_TYPES.slice(1)
      .map((name) => `'${name}'`)
      .join(', ')}).`,
    "Or give the param's JSON Schema: @Param({ schema: { type: 'string', enum: ['metric', 'imperial'] } }).",
  ];
  if (given === undefined || (given.type === undefined) === (given.schema === undefined)) {
    throw new DecoratorError({
      decorator: '@Param',
      target: where,
      problem: 'expected an object with exactly one of `type` and `schema`.',
      solutions,
    });
  }
  if (given.type !== undefined) {
    if (!(PARAM_TYPES as readonly unknown[]).includes(given.type)) {
      throw new DecoratorError({
        decorator: '@Param',
        target: where,
        problem: `unknown type ${JSON.stringify(given.type)}.`,
        solutions,
      });
    }
    return { kind: 'type', type: given.type as ParamType };
  }
  const schema = given.schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new DecoratorError({
      decorator: '@Param',
      target: where,
      problem: 'the schema is not a JSON Schema object.',
      solutions,
    });
  }
  try {
    validateJson(schema as JSONSchema, null);
  } catch (error) {
    if (!InvalidSchemaError.isInstance(error)) throw error;
    throw new DecoratorError({
      decorator: '@Param',
      target: where,
      problem: `the schema is not a valid JSON Schema (${error.message}).`,
      solutions,
      cause: error,
    });
  }
  return { kind: 'schema', schema: structuredClone(schema as JSONSchema) };
}

/** The `@Param` records declared on `type` itself (created on first use). @internal */
export function ownParams(type: ClassConstructor): Map<string, ParamRecord> {
  let map = Reflect.getOwnMetadata(PARAMS_KEY, type) as Map<string, ParamRecord> | undefined;
  if (map === undefined) {
    map = new Map();
    Reflect.defineMetadata(PARAMS_KEY, map, type);
  }
  return map;
}

/** The `@Param` record of `type.propertyName`, own or inherited. @internal */
export function paramOf(type: ClassConstructor, propertyName: string): ParamRecord | undefined {
  for (const entry of classChain(type)) {
    const map = Reflect.getOwnMetadata(PARAMS_KEY, entry) as Map<string, ParamRecord> | undefined;
    const record = map?.get(propertyName);
    if (record !== undefined) return record;
  }
  return undefined;
}
