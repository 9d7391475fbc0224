import type { Idea } from './idea';
import type { JSONSchema } from './json-schema';
import type { Message } from './message';
import { withRootDefinitions } from './root-definitions';
import { latestToolDefinitions } from './tool-override';
import type { ToolSchema } from './tool-schema';
import { DEFAULT_VESSEL_OUTPUT } from './vessel-schema';

/** An Idea whose schema is a Vessel, taken apart to run it as an agent. */
export interface VesselIdeaParts {
  /** The Tools its Vessel offers (with their meta-fields). */
  tools: ToolSchema[];
  /** The Idea's context: the initial messages of the run. */
  context: Message[];
  /** The schema of its final output (the non-null part of `output`). */
  output?: JSONSchema;
}

/**
 * Splits an agent Idea (R-MOD-5: its schema offers Tools) into what `agent.run()` needs, so the same
 * file runs as the top-level agent or as a nested module. Undefined when the schema is not a Vessel.
 */
export function vesselIdeaParts(idea: Idea): VesselIdeaParts | undefined {
  const tools = vesselTools(idea.schema);
  if (tools === undefined) return undefined;
  const parts: VesselIdeaParts = { tools, context: [...idea.context] };
  const output = vesselOutput(idea.schema);
  if (output !== undefined) parts.output = output;
  return parts;
}

/**
 * The Tools a module schema offers when it is a Vessel (`{ calls: [anyOf tool schemas], output }`),
 * else undefined. The items are the module author's Tool schemas (meta-fields included: `_module`
 * or `_delegate` paths are relative to the module root), recognised by their `_tool` const (R-MOD-5);
 * a name listed twice keeps its later definition (R-TOOL-5). The Vessel's
 * root `$defs` travel with each Tool, so their `$ref`s still resolve once the Tools are taken out.
 */
export function vesselTools(schema: JSONSchema): ToolSchema[] | undefined {
  const calls = schema.properties?.calls;
  if (schema.type !== 'object' || calls === undefined || calls.type !== 'array') return undefined;
  const items = calls.items;
  if (items === undefined || Array.isArray(items)) return undefined;
  const candidates = items.anyOf ?? items.oneOf ?? [items];
  const tools = candidates.filter(isToolSchema);
  if (tools.length === 0 || tools.length !== candidates.length) return undefined;
  // R-TOOL-5: a Tool listed twice is the later definition.
  return latestToolDefinitions(tools).map((tool) => withRootDefinitions(tool, schema));
}

/**
 * The non-null part of a Vessel schema's `output` (undefined when the module gives none), with the
 * Vessel's root `$defs` so its `$ref`s still resolve.
 */
export function vesselOutput(schema: JSONSchema): JSONSchema | undefined {
  const output = schema.properties?.output;
  if (output === undefined) return undefined;
  const variants = output.anyOf ?? output.oneOf;
  let nonNull: JSONSchema | undefined;
  if (variants !== undefined) {
    const rest = variants.filter((variant) => variant.type !== 'null');
    if (rest.length > 0) nonNull = rest.length === 1 ? rest[0] : { anyOf: rest };
  } else if (Array.isArray(output.type)) {
    const types = output.type.filter((type) => type !== 'null');
    if (types.length > 0) nonNull = { ...output, type: types.length === 1 ? types[0] : types };
  } else if (output.type !== 'null') {
    nonNull = output;
  }
  return nonNull === undefined ? undefined : withRootDefinitions(nonNull, schema);
}

/**
 * What a module Call returns (R-MOD-5): for an agent Idea (a Vessel schema) the final `output` of its
 * nested run (the default answer string when it declares none), never the Vessel with its Calls; for
 * any other Idea its schema. Codegen types and upfront `_output` use it.
 */
export function moduleOutputSchema(idea: Idea): JSONSchema {
  if (vesselTools(idea.schema) === undefined) return idea.schema;
  return vesselOutput(idea.schema) ?? DEFAULT_VESSEL_OUTPUT;
}

function isToolSchema(schema: JSONSchema): schema is ToolSchema {
  const tool = schema.properties?._tool;
  return schema.type === 'object' && tool !== undefined && typeof tool.const === 'string';
}
