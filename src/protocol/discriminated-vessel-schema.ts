import type { JSONSchema } from './json-schema';
import { isPlainObject } from '../internal/is-plain-object';

/** The property a Vessel's Call schemas are told apart by (each Tool's `_tool` const). */
const TAG = '_tool';

/**
 * A copy of a Vessel schema whose `calls.items.anyOf` — one branch per Tool, each requiring `_tool`
 * with its own string `const` — is ajv's discriminated `oneOf` instead. A validator of the copy checks
 * each Call against its own Tool's branch only, where `anyOf` tries the branches in order and builds
 * the errors of every branch before the right one (issue 28). The copy accepts only values the schema
 * accepts (a value it accepts matches the branch its `_tool` names), so a value it rejects must be
 * checked against the schema itself, for the issues to report. Undefined when the schema has no such
 * `anyOf`, or when `text` (the schema's JSON) mentions `discriminator` at all: ideact's validator
 * ignores that keyword, the copy's would not. @internal
 */
export function discriminatedVesselSchema(
  schema: JSONSchema,
  text: string,
): JSONSchema | undefined {
  if (text.includes('"discriminator"')) return undefined;
  const calls = schema.properties?.calls;
  const items = isPlainObject(calls) ? calls.items : undefined;
  if (!isPlainObject(items) || !Array.isArray(items.anyOf) || items.anyOf.length < 2) {
    return undefined;
  }
  // The items schema must be the `anyOf` alone (what buildVesselSchema makes): nothing to merge.
  if (Object.keys(items).length !== 1) return undefined;
  const tags = new Set<string>();
  for (const branch of items.anyOf) {
    if (!isPlainObject(branch)) return undefined;
    const tag = isPlainObject(branch.properties) ? branch.properties[TAG] : undefined;
    const value = isPlainObject(tag) ? tag.const : undefined;
    if (typeof value !== 'string' || tags.has(value)) return undefined;
    if (!Array.isArray(branch.required) || !branch.required.includes(TAG)) return undefined;
    tags.add(value);
  }
  const discriminated: JSONSchema = {
    type: 'object',
    required: [TAG],
    discriminator: { propertyName: TAG },
    oneOf: items.anyOf,
  };
  return {
    ...schema,
    properties: { ...schema.properties, calls: { ...calls, items: discriminated } },
  };
}
