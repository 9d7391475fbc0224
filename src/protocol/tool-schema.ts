import type { JSONSchema } from './json-schema';

/**
 * A Tool: a JSON Schema of an object whose plain properties are params and whose `_`-prefixed
 * properties are meta-fields (DESIGN.md §2):
 * - `_tool: { const: name }` (required),
 * - `_output`: the schema of the latent output (the LLM fills `_output` inline),
 * - `_activity: { const: activityName }` (`''` = latent),
 * - `_module: { const: pathOrUrlOrAnonymous }`, `_resolution: { const: 'execution' | 'upfront' }`,
 * - `_imports`: `{ const: kinds }` (static) or `{ type: 'array', items: { enum: kinds } }` (dynamic),
 * - `_outputPath`: `{ const: path }` (fixed) or `{ enum: paths }` / `{ type: 'string' }` (LLM's choice).
 */
export interface ToolSchema extends JSONSchema {
  properties: Record<string, JSONSchema> & { _tool: JSONSchema };
}
