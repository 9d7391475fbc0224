import { isPlainObject } from '../internal/is-plain-object';
import { pointerSegments, resolveLocalPointer } from '../protocol/json-pointer';
import type { JSONSchema } from '../protocol/json-schema';
import { childPath, toPascalCase } from './naming';

/**
 * Schema helpers of the params-class builder: which keywords have no class-validator counterpart,
 * which formats map to which decorator, and local `$ref` resolution.
 */

/** Keywords that constrain values but have no class-validator counterpart; each one is a warning. */
export const UNMAPPED_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'prefixItems',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'unevaluatedProperties',
  'unevaluatedItems',
];

/** String formats with a class-validator decorator; other formats produce a warning. */
export const FORMAT_DECORATORS: Record<string, string> = {
  email: 'IsEmail',
  uri: 'IsUrl',
  url: 'IsUrl',
  uuid: 'IsUUID',
  'date-time': 'IsISO8601',
  date: 'IsISO8601',
};

/** The non-blank `description` of a schema. @internal */
export function describedBy(schema: JSONSchema): string | undefined {
  return typeof schema.description === 'string' && schema.description.trim() !== ''
    ? schema.description
    : undefined;
}

/** True for an object schema with `properties` (the shape a params class can express). @internal */
export function isObjectSchema(schema: JSONSchema): boolean {
  return (
    (schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined)) &&
    typeof schema.properties === 'object'
  );
}

/** The type a schema without `type` implies (`properties` → object, `items` → array). @internal */
export function inferType(schema: JSONSchema): string | undefined {
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/** True for JSON primitives (usable in `@IsIn([...])`). @internal */
export function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The last segment of a local `$ref` (`#/$defs/Verse` → `Verse`), used to name its class. @internal */
export function referenceName(reference: string | undefined): string | undefined {
  if (reference === undefined) return undefined;
  const segment = reference.split('/').pop();
  if (segment === undefined || segment === '' || segment === '#') return undefined;
  const name = pointerSegments(`#/${segment}`, true)?.[0];
  return name === undefined ? undefined : toPascalCase(name);
}

/** Resolves a local JSON Pointer reference (`#/definitions/X`) inside `root`. @internal */
export function pointer(root: JSONSchema, reference: string): JSONSchema | undefined {
  const target = resolveLocalPointer(root, reference);
  return isPlainObject(target) ? (target as JSONSchema) : undefined;
}

/** The JSON Pointer (inside the Idea file) of the schema a local `$ref` points to. @internal */
export function pointerPath(rootPath: string, reference: string): string {
  const segments = pointerSegments(reference, true) ?? [];
  return segments.reduce((path, segment) => childPath(path, segment), rootPath);
}
