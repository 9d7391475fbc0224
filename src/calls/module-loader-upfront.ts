import type { Idea } from '../protocol/idea';
import type { JSONSchema } from '../protocol/json-schema';
import type { ToolSchema } from '../protocol/tool-schema';
import { moduleOutputSchema } from '../protocol/vessel-idea';

/**
 * Upfront resolution (R-MOD-4), pure part: the module's input schema properties and `required` are
 * merged into the Tool's params (the module wins when both define a param; `_`-prefixed meta-fields
 * of the Tool are kept), and `_output` becomes what the module returns: its schema, or for an agent
 * Idea (R-MOD-5) the final output of its nested run. Returns a new Tool; no mutation.
 * @internal
 */
export function mergeUpfront(
  tool: ToolSchema,
  idea: Idea,
  inputSchema: JSONSchema | undefined,
): ToolSchema {
  const properties: Record<string, JSONSchema> = { ...tool.properties };
  for (const [name, schema] of Object.entries(inputSchema?.properties ?? {})) {
    if (name.startsWith('_')) continue;
    properties[name] = schema;
  }
  properties._output = moduleOutputSchema(idea);
  const required = [...(tool.required ?? [])];
  for (const name of inputSchema?.required ?? []) {
    if (!name.startsWith('_') && !required.includes(name)) required.push(name);
  }
  const merged: ToolSchema = {
    ...tool,
    properties: properties as ToolSchema['properties'],
    required,
  };
  if (tool.description === undefined && idea.description !== undefined) {
    merged.description = idea.description;
  }
  return merged;
}
