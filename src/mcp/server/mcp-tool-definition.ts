import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { JSONSchema } from '../../protocol/json-schema';
import { readTool } from '../../protocol/read-tool';
import type { ToolInfo } from '../../protocol/tool-info';
import type { ToolSchema } from '../../protocol/tool-schema';
import { toolNeedsApproval } from '../../calls/call-approval';
import { OUTPUT_WRAPPER_META_KEY, OUTPUT_WRAPPER_PROPERTY } from './mcp-meta-keys';

/** An ideact Tool as served over MCP: the MCP tool definition and how its output is shaped. */
export interface ServedTool {
  /** What `tools/list` answers for it. */
  definition: McpTool;
  /** The Tool read into plain fields (name, params, `_output`, module, activity). */
  info: ToolInfo;
  /** The Tool as the executor runs it. */
  tool: ToolSchema;
  /** True when the output is sent as `{ result: output }` (non-object or absent `_output`). */
  wrapped: boolean;
}

/**
 * Maps an ideact Tool onto an MCP tool: `inputSchema` is exactly the params schema the runtime
 * validates with (`readTool(tool).params`); `outputSchema` is `_output` when it is object-typed,
 * else `{ type: 'object', properties: { result: _output }, required: ['result'] }` with the tool's
 * `_meta['ideact/outputWrapper'] = 'result'` (MCP only allows object output schemas). A Tool whose
 * schema says `needsApproval: true` is annotated `destructiveHint: true`.
 */
export function servedTool(tool: ToolSchema): ServedTool {
  const info = readTool(tool);
  const definitions = rootDefinitions(tool);
  const output = info.output;
  const wrapped = !isObjectSchema(output);
  const outputSchema: JSONSchema = wrapped
    ? {
        type: 'object',
        properties: { [OUTPUT_WRAPPER_PROPERTY]: output ?? {} },
        required: [OUTPUT_WRAPPER_PROPERTY],
        // `#/$defs/…` resolves against the document root, which is now the wrapper.
        ...mergedDefinitions(definitions, output),
      }
    : { ...definitions, ...output };
  const definition: McpTool = {
    name: info.name,
    inputSchema: info.params as McpTool['inputSchema'],
    outputSchema: outputSchema as McpTool['outputSchema'],
  };
  if (info.description !== undefined) definition.description = info.description;
  // A Tool that needs a person's approval has side effects a client should confirm.
  if (toolNeedsApproval(tool)) definition.annotations = { destructiveHint: true };
  if (wrapped) definition._meta = { [OUTPUT_WRAPPER_META_KEY]: OUTPUT_WRAPPER_PROPERTY };
  return { definition, info, tool, wrapped };
}

/** The structured content of an output: the output itself, or `{ result: output }` when wrapped. */
export function structuredOutput(served: ServedTool, output: unknown): Record<string, unknown> {
  if (served.wrapped) return { [OUTPUT_WRAPPER_PROPERTY]: output ?? null };
  return output as Record<string, unknown>;
}

/** True for a schema MCP accepts as an outputSchema as it is: `type: 'object'`. */
function isObjectSchema(schema: JSONSchema | undefined): schema is JSONSchema {
  return schema !== undefined && schema.type === 'object';
}

/** The Tool's root definitions with the output schema's own (which win on a name clash). */
function mergedDefinitions(root: JSONSchema, output: JSONSchema | undefined): JSONSchema {
  const merged: JSONSchema = { ...root };
  for (const key of ['$defs', 'definitions'] as const) {
    const own = output?.[key];
    if (own !== undefined) merged[key] = { ...root[key], ...own };
  }
  return merged;
}

/** The Tool's root `$defs` / `definitions`, so `#/$defs/…` references in `_output` still resolve. */
function rootDefinitions(tool: ToolSchema): JSONSchema {
  const definitions: JSONSchema = {};
  if (tool.$defs !== undefined) definitions.$defs = tool.$defs;
  if (tool.definitions !== undefined) definitions.definitions = tool.definitions;
  return definitions;
}
