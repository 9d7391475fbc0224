import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ToolSchema } from '../../protocol/tool-schema';
import { MCP_CONTENT_RESULT_SCHEMA } from './mcp-content';

/**
 * An MCP tool as an ideact ToolSchema named `name` (the MCP name with the toolset's prefix): the
 * `inputSchema`'s properties and `required` become the params, its other keywords (`$defs`,
 * `additionalProperties`, …) stay on the schema, the description is kept, and `_output` is the
 * `outputSchema` (else {@link MCP_CONTENT_RESULT_SCHEMA}), so the executor checks every output.
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
  const params = (properties ?? {}) as Record<string, JSONSchema>;
  const schema: ToolSchema = {
    ...(rest as JSONSchema),
    type: 'object',
    properties: {
      _tool: { const: name },
      ...params,
      _output:
        tool.outputSchema === undefined
          ? MCP_CONTENT_RESULT_SCHEMA
          : withoutDialect(tool.outputSchema),
    },
    required: ['_tool', ...((required as string[] | undefined) ?? [])],
  };
  const description = tool.description ?? tool.title ?? tool.annotations?.title;
  if (description !== undefined) schema.description = description;
  return schema;
}

/** The schema without its `$schema` dialect URI (ideact validates draft-07 and 2020-12 keywords alike). */
function withoutDialect(schema: object): JSONSchema {
  const { $schema: _schema, ...rest } = schema as JSONSchema & { $schema?: unknown };
  return rest as JSONSchema;
}
