import type { JSONSchema } from './json-schema';
import { mapSubschemas, type SchemaNode } from './schema-walk';

/**
 * A copy of `schema` in which every `$ref` of a schema position is replaced by `rename($ref)`
 * (`undefined` keeps it). Moving definitions (the Vessel's `$defs` hoisting, codegen's `definitions` →
 * `$defs`) needs their `$ref`s renamed; a `$ref` key inside `const`/`enum`/`default` data is data and stays.
 * @internal
 */
export function renameReferences(
  schema: JSONSchema,
  rename: (reference: string) => string | undefined,
): JSONSchema {
  const visit = (node: SchemaNode): SchemaNode => {
    if (typeof node === 'boolean') return node;
    const copy = mapSubschemas(node, visit);
    if (typeof copy.$ref === 'string') copy.$ref = rename(copy.$ref) ?? copy.$ref;
    return copy;
  };
  return visit(schema) as JSONSchema;
}
