import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ToolSchema } from '../../protocol/tool-schema';
import { OUTPUT_WRAPPER_META_KEY } from '../server/mcp-meta-keys';
import { MCP_CONTENT_RESULT_SCHEMA } from './mcp-content';

/**
 * An MCP tool as an ideact ToolSchema named `name` (the MCP name with the toolset's prefix): the
 * `inputSchema`'s properties and `required` become the params, its other keywords (`$defs`,
 * `additionalProperties`, …) stay on the schema, the description is kept, and `_output` is the
 * `outputSchema` (else {@link MCP_CONTENT_RESULT_SCHEMA}), so the executor checks every output.
 * Params named with a leading `_` are left out (ideact's meta-fields). An
 * output an ideact server wrapped (`_meta['ideact/outputWrapper']`) is unwrapped: `_output` is the
 * wrapped property's schema, so a Tool served and consumed again keeps its `_output` exactly.
 * @internal
 */
export function toToolSchema(tool: McpTool, name: string): ToolSchema {
  const {
    type: _type,
    properties,
    required,
    $schema: _schema,
    ...rest
  } = tool.inputSchema as JSONSchema & { $schema?: unknown };
  // `_` names are ideact's meta-fields (`_activity`, `_module`, `_outputPath`…): a server must not set
  // them (it could route a Call to a local Activity or a module), so such params are left out.
  const params: Record<string, JSONSchema> = {};
  for (const [key, value] of Object.entries((properties ?? {}) as Record<string, JSONSchema>)) {
    if (!key.startsWith('_')) params[key] = value;
  }
  const schema: ToolSchema = {
    ...(rest as JSONSchema),
    type: 'object',
    properties: {
      _tool: { const: name },
      ...params,
      _output: outputOf(tool),
    },
    required: [
      '_tool',
      ...((required as string[] | undefined) ?? []).filter((key) => !key.startsWith('_')),
    ],
  };
  const description = tool.description ?? tool.title ?? tool.annotations?.title;
  if (description !== undefined) schema.description = description;
  return schema;
}

/**
 * The property a server wrapped a non-object output in (`_meta['ideact/outputWrapper']`, as
 * `createMcpServer` marks it: MCP requires an object `outputSchema`), when the schema has it.
 * @internal
 */
export function outputWrapperOf(tool: McpTool): string | undefined {
  const key = (tool._meta as Record<string, unknown> | undefined)?.[OUTPUT_WRAPPER_META_KEY];
  if (typeof key !== 'string') return undefined;
  const properties = (tool.outputSchema as JSONSchema | undefined)?.properties;
  return properties?.[key] === undefined ? undefined : key;
}

/** `_output`: the outputSchema (unwrapped for a wrapped output, its root `$defs` kept), or the content-result schema. */
function outputOf(tool: McpTool): JSONSchema {
  if (tool.outputSchema === undefined) return MCP_CONTENT_RESULT_SCHEMA;
  const schema = withoutDialect(tool.outputSchema);
  const wrapper = outputWrapperOf(tool);
  if (wrapper === undefined) return schema;
  const { $defs, definitions } = schema;
  const inner = schema.properties![wrapper]!;
  return {
    ...($defs === undefined ? {} : { $defs }),
    ...(definitions === undefined ? {} : { definitions }),
    ...inner,
  };
}

/** The schema without its `$schema` dialect URI (ideact validates draft-07 and 2020-12 keywords alike). */
function withoutDialect(schema: object): JSONSchema {
  const { $schema: _schema, ...rest } = schema as JSONSchema & { $schema?: unknown };
  return rest as JSONSchema;
}
