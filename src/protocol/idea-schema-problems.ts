import { InvalidSchemaError } from '../errors/invalid-schema.error';
import { isPlainObject } from '../internal/is-plain-object';
import type { Idea } from './idea';
import type { JSONSchema } from './json-schema';
import { validateJson } from './json-validation';
import { mapSubschemas, type SchemaNode } from './schema-walk';

/** Options of {@link findIdeaSchemaProblems}. */
export interface IdeaSchemaCheckOptions {
  /**
   * `'skip'`: `$ref`s to other documents (a URL, a file beside the Idea, a `$ref` through the schema's
   * own `$id`) are not checked, because the caller resolves them itself (codegen does). Default
   * `'check'`: every `$ref` must resolve inside the schema, as the runtime's validator needs.
   */
  externalReferences?: 'check' | 'skip';
}

/**
 * The schemas of an Idea that are not valid JSON Schema — the Idea's `schema` and each context
 * message's — as `InvalidSchemaError`s naming `source` and the JSON path, e.g. `ideas/song.json at
 * /schema: Invalid JSON Schema: NOT SUPPORTED: keyword "id", use "$id" …`. The one schema check of
 * `ideact validate` and of codegen (which runs it before json-schema-to-typescript sees a schema), so
 * both say the same thing. Messages that are not objects are skipped (structure is parseIdea's job).
 */
export function findIdeaSchemaProblems(
  idea: Pick<Idea, 'context' | 'schema'>,
  source: string,
  options: IdeaSchemaCheckOptions = {},
): InvalidSchemaError[] {
  const problems: InvalidSchemaError[] = [];
  const check = (schema: unknown, jsonPath: string): void => {
    if (!isPlainObject(schema)) return;
    const checked =
      options.externalReferences === 'skip'
        ? withoutExternalReferences(schema as JSONSchema)
        : (schema as JSONSchema);
    try {
      validateJson(checked, null);
    } catch (error) {
      if (!InvalidSchemaError.isInstance(error)) throw error;
      problems.push(
        new InvalidSchemaError({
          message: `${source} at ${jsonPath}: ${error.message}`,
          source,
          jsonPath,
          cause: error,
        }),
      );
    }
  };
  check(idea.schema, '/schema');
  if (Array.isArray(idea.context)) {
    idea.context.forEach((message: unknown, index) => {
      if (isPlainObject(message)) check(message.schema, `/context/${index}/schema`);
    });
  }
  return problems;
}

/** The schema without its `$ref`s to other documents (anything but `#…`), for the check alone. */
function withoutExternalReferences(schema: JSONSchema): JSONSchema {
  const copy = mapSubschemas(schema, (child: SchemaNode) =>
    typeof child === 'boolean' ? child : withoutExternalReferences(child),
  );
  if (typeof copy.$ref === 'string' && !copy.$ref.startsWith('#')) delete copy.$ref;
  return copy;
}
