import { isPlainObject } from '../../internal/is-plain-object';
import type { JSONSchema } from '../../protocol/json-schema';
import { resolveLocalRef } from '../strict/strict-schema-rules';

/**
 * String formats Gemini's response schema accepts (its OpenAPI `Schema` allows `date-time` and `enum`
 * on strings); the others move into the description.
 */
const GEMINI_STRING_FORMATS = new Set(['date-time']);

/**
 * Converts a schema already in the strict subset (`toStrictSchema`'s output) to the form Google's
 * Gemini API takes as `responseSchema` (ai@6's `@ai-sdk/google`, an OpenAPI 3.0 subset) and as
 * `responseJsonSchema` (ai@7's), so the same schema reaches Gemini whichever package sends it and no
 * keyword is dropped on the way: local `$ref`s are inlined (`$defs` removed), `pattern`, formats other
 * than `date-time` and enums of non-strings move into `description`, `additionalProperties: false`
 * is left out (Gemini writes only the listed properties). Returns undefined for a recursive schema,
 * which Gemini cannot take: the caller sends it in the prompt instead. The reply is validated against
 * the original schema by the request pipeline, so every moved constraint is still enforced.
 */
export function toGeminiSchema(strictSchema: JSONSchema): JSONSchema | undefined {
  try {
    return convert(strictSchema, strictSchema, []);
  } catch (error) {
    if (error instanceof RecursiveSchema) return undefined;
    throw error;
  }
}

class RecursiveSchema extends Error {}

function convert(node: JSONSchema, root: JSONSchema, resolving: string[]): JSONSchema {
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (resolving.includes(ref)) throw new RecursiveSchema(ref);
    const target = resolveLocalRef(ref, root) ?? {};
    const { $ref: _ref, ...siblings } = node;
    return convert({ ...target, ...siblings }, root, [...resolving, ref]);
  }
  const result: JSONSchema = {};
  const moved: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    switch (keyword) {
      case '$defs':
      case 'definitions':
      case 'additionalProperties':
        break;
      case 'properties':
        result.properties = Object.fromEntries(
          Object.entries(value as Record<string, JSONSchema>).map(([name, property]) => [
            name,
            convert(property, root, resolving),
          ]),
        );
        break;
      case 'items':
        result.items = isPlainObject(value)
          ? convert(value as JSONSchema, root, resolving)
          : (value as JSONSchema);
        break;
      case 'anyOf':
        result.anyOf = (value as JSONSchema[]).map((branch) => convert(branch, root, resolving));
        break;
      case 'format':
        if (GEMINI_STRING_FORMATS.has(value as string)) result.format = value as string;
        else moved.push(`format: ${JSON.stringify(value)}`);
        break;
      case 'pattern':
        moved.push(`pattern: ${JSON.stringify(value)}`);
        break;
      case 'enum':
        if (isStringEnum(value as unknown[])) result.enum = value as unknown[];
        else moved.push(`one of: ${JSON.stringify(nonNull(value as unknown[]))}`);
        break;
      default:
        result[keyword] = value;
    }
  }
  if (moved.length > 0) {
    const constraints = `Constraints: ${moved.join('; ')}`;
    result.description =
      typeof result.description === 'string' && result.description !== ''
        ? `${result.description}\n${constraints}`
        : constraints;
  }
  return result;
}

/** Gemini's enums are strings (a `null` among them stands for a nullable type). */
function isStringEnum(values: unknown[]): boolean {
  const kept = nonNull(values);
  return kept.length > 0 && kept.every((value) => typeof value === 'string');
}

/** The values besides `null` (which the node's nullable type already admits). */
function nonNull(values: unknown[]): unknown[] {
  return values.filter((value) => value !== null);
}
