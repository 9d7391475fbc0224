import type { JSONSchema } from './json-schema';
import { offeredOutputMethod } from './read-output-method';
import { readTool, resolveActivity } from './read-tool';
import { renameReferences } from './rename-references';
import { latestToolDefinitions } from './tool-override';
import type { ToolSchema } from './tool-schema';
import { DEFAULT_VESSEL_OUTPUT, REFERENCE_PARAM_SCHEMA } from './vessel-defaults';

export { DEFAULT_VESSEL_OUTPUT, REFERENCE_PARAM_SCHEMA } from './vessel-defaults';

/** Options of {@link callSchema} and {@link buildVesselSchema}. */
export interface CallSchemaOptions {
  /**
   * Instance ids the LLM may target; when given, each call schema offers an optional `_instance`
   * enum (R-INST-1). Absent = no `_instance` property.
   */
  instances?: string[];
  /**
   * Names of registered Activities; a Tool whose Activity resolves by its own name (R-TOOL-2) is
   * explicit, so its `_output` is not shown. Absent = only an explicit `_activity` counts.
   */
  activities?: ReadonlySet<string>;
  /**
   * Let params hold a `†kind.path` reference instead of a literal value (R-VAR-1), so the LLM can
   * point at data in the context. Default true; params that already accept any string are unchanged.
   */
  references?: boolean;
}

function acceptsAnyString(schema: JSONSchema): boolean {
  if (schema.type !== 'string') return false;
  return (
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.pattern === undefined &&
    schema.format === undefined &&
    schema.maxLength === undefined
  );
}

function allowReference(schema: JSONSchema): JSONSchema {
  if (acceptsAnyString(schema)) return schema;
  return { anyOf: [schema, REFERENCE_PARAM_SCHEMA] };
}

/**
 * The JSON Schema of one Call of `tool` as the LLM sees it inside a Vessel: `_reasoningForCall`
 * (optional, first), `_tool`, the params, `_output` for inline latent Tools, `_outputPath` /
 * `_outputMethod` / `_imports` (or `_scopes`) only when the Tool leaves them to the LLM, `_instance`
 * when instances are given. `_activity`, `_module` / `_delegate`, `_resolution` and other meta-fields
 * stay hidden.
 */
export function callSchema(tool: ToolSchema, options: CallSchemaOptions = {}): JSONSchema {
  const info = readTool(tool);
  const properties: Record<string, JSONSchema> = {
    _reasoningForCall: {
      type: 'string',
      description: 'Why this call is needed now (written before the params).',
    },
    _tool: tool.properties._tool,
  };
  const references = options.references ?? true;
  for (const [key, schema] of Object.entries(info.params.properties ?? {}))
    properties[key] = references ? allowReference(schema) : schema;
  const required = ['_tool', ...(info.params.required ?? [])];

  const explicit =
    options.activities === undefined
      ? info.activity !== undefined && info.activity !== ''
      : resolveActivity(tool, options.activities) !== '';
  if (info.output !== undefined && info.module === undefined && !explicit) {
    properties._output = info.output;
    required.push('_output');
  }
  if (info.outputPath.mode === 'choice' && tool.properties._outputPath !== undefined) {
    properties._outputPath = tool.properties._outputPath;
  }
  const outputMethod = offeredOutputMethod(info, tool.properties._outputMethod);
  if (outputMethod !== undefined) {
    properties._outputMethod = outputMethod.schema;
    if (outputMethod.required) required.push('_outputMethod');
  }
  // R-SCOPE-1: shown under the name the Tool wrote (`_imports` or `_scopes`); the Call answers in it.
  if (info.imports.mode === 'dynamic' && tool.properties[info.imports.field] !== undefined) {
    properties[info.imports.field] = tool.properties[info.imports.field]!;
  }
  if (options.instances !== undefined) {
    properties._instance = {
      type: 'string',
      enum: [...options.instances],
      description: 'The instance this call works on; omit for global data.',
    };
  }
  const schema: JSONSchema = { type: 'object' };
  if (info.description !== undefined) schema.description = info.description;
  schema.properties = properties;
  schema.required = required;
  schema.additionalProperties = false;
  if (tool.$defs !== undefined) schema.$defs = tool.$defs;
  if (tool.definitions !== undefined) schema.definitions = tool.definitions;
  return schema;
}

/**
 * Moves `$defs`/`definitions` of the call schemas to the Vessel's root, where their `$ref`s resolve
 * (`#/$defs/X` points at the root document). A name two tools define differently is renamed
 * `<tool>_<name>` in that tool's call schema.
 */
function hoistDefinitions(calls: JSONSchema[]): {
  calls: JSONSchema[];
  defs?: Record<string, JSONSchema>;
} {
  const defs: Record<string, JSONSchema> = {};
  const hoisted = calls.map((call) => {
    const own = { ...(call.definitions ?? {}), ...(call.$defs ?? {}) };
    if (Object.keys(own).length === 0) return call;
    const renames = new Map<string, string>();
    for (const [name, definition] of Object.entries(own)) {
      let target = name;
      if (defs[name] !== undefined && JSON.stringify(defs[name]) !== JSON.stringify(definition)) {
        const tool = (call.properties?._tool as JSONSchema | undefined)?.const;
        target = `${String(tool)}_${name}`;
      }
      renames.set(name, target);
    }
    const { $defs: _defs, definitions: _definitions, ...rest } = call;
    const rename = (reference: string): string | undefined => {
      const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(reference);
      return match ? `#/$defs/${renames.get(match[1]!) ?? match[1]!}` : undefined;
    };
    for (const [name, definition] of Object.entries(own)) {
      defs[renames.get(name)!] = renameReferences(definition, rename);
    }
    return renameReferences(rest, rename);
  });
  return Object.keys(defs).length === 0 ? { calls: hoisted } : { calls: hoisted, defs };
}

/**
 * The schema of a Vessel Request (seed 002): `{ calls: [call schemas…], output: <output> | null }`.
 * Without `output`, the final output is an answer string (or null while work remains). Zero tools →
 * `calls` must be empty. Tool `$defs` move to the root so their `$ref`s resolve. A Tool name given
 * twice is offered once, as its later definition (R-TOOL-5).
 */
export function buildVesselSchema(
  declared: ToolSchema[],
  output?: JSONSchema,
  options: CallSchemaOptions = {},
): JSONSchema {
  const description =
    'The tool calls to run now, in order; an empty list when nothing is left to do.';
  const tools = latestToolDefinitions(declared);
  const { calls: callSchemas, defs } = hoistDefinitions(
    tools.map((tool) => callSchema(tool, options)),
  );
  const calls: JSONSchema =
    tools.length === 0
      ? { type: 'array', description, maxItems: 0, items: {} }
      : { type: 'array', description, items: { anyOf: callSchemas } };
  const schema: JSONSchema = {
    type: 'object',
    properties: {
      calls,
      output: { anyOf: [output ?? DEFAULT_VESSEL_OUTPUT, { type: 'null' }] },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  };
  if (defs !== undefined) schema.$defs = defs;
  return schema;
}
