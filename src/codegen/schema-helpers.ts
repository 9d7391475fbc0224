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
  return segment === undefined || segment === '' || segment === '#'
    ? undefined
    : toPascalCase(decodeSegment(segment));
}

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Resolves a local JSON Pointer reference (`#/definitions/X`) inside `root`. @internal */
export function pointer(root: JSONSchema, reference: string): JSONSchema | undefined {
  const segments = reference
    .slice(1)
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
  let current: unknown = root;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return typeof current === 'object' && current !== null && !Array.isArray(current)
    ? (current as JSONSchema)
    : undefined;
}

/** The JSON Pointer (inside the Idea file) of the schema a local `$ref` points to. @internal */
export function pointerPath(rootPath: string, reference: string): string {
  return reference
    .slice(1)
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment)
    .reduce<string>(
      (path, segment) => childPath(path, /^\d+$/.test(segment) ? Number(segment) : segment),
      rootPath,
    );
}
