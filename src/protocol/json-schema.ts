/**
 * A JSON Schema object (draft 2020-12 / draft-07 keywords). Kept open with an index signature
 * because tool schemas carry `_`-prefixed meta-fields and users bring arbitrary keywords.
 */
export interface JSONSchema {
  /** One of {@link JSONSchemaTypeName} (typed as string so plain object literals are accepted). */
  type?: string | string[];
  properties?: Record<string, JSONSchema>;
  required?: string[];
  additionalProperties?: boolean | JSONSchema;
  items?: JSONSchema | JSONSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JSONSchema[];
  oneOf?: JSONSchema[];
  allOf?: JSONSchema[];
  $ref?: string;
  $defs?: Record<string, JSONSchema>;
  definitions?: Record<string, JSONSchema>;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  [keyword: string]: unknown;
}

/**
 * Keywords that say what a schema accepts: its type, structure, literals, combinators and references.
 * A plain object with none of them is not recognisably a schema (`@Output` rejects it); strict
 * conversion keeps these and moves most others into the description.
 */
export const SCHEMA_SHAPE_KEYWORDS = [
  'type',
  'properties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
] as const;

/** The primitive type names JSON Schema's `type` keyword accepts. */
export type JSONSchemaTypeName =
  'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** Any JSON value; used where a payload is data the LLM or the user produced. */
export type JSONValue =
  string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
