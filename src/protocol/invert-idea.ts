import { InvalidIdeaError } from '../errors/invalid-idea.error';
import type { Idea } from './idea';
import type { JSONSchema } from './json-schema';
import { viewOfKind } from './kind-view';
import { isPlainObject } from '../internal/is-plain-object';
import type { ToolSchema } from './tool-schema';

/**
 * The Idea's input (the global `input` messages of its context merged): its schema and data.
 * Undefined when the Idea has no input message (then it takes no params).
 */
export function findIdeaInput(idea: Idea): { schema?: JSONSchema; data?: unknown } | undefined {
  const view = viewOfKind(idea.context, 'input');
  if (view === undefined) return undefined;
  const input: { schema?: JSONSchema; data?: unknown } = {};
  if (view.schema !== undefined) input.schema = view.schema;
  if (view.data !== undefined) input.data = view.data;
  return input;
}

/**
 * R-TOOL-1: inverts an Idea into a Tool — the input schema's properties become the params, the
 * Idea's schema becomes `_output`, `_tool` is `name` (or the Idea's name). The Tool is inline latent;
 * add `_module` / `_activity` to change how it runs. Throws `InvalidIdeaError` without a name.
 */
export function invertIdea(idea: Idea, name?: string): ToolSchema {
  const toolName = name ?? idea.name;
  const source = idea.name === undefined ? 'the inverted Idea' : `Idea "${idea.name}"`;
  if (typeof toolName !== 'string' || toolName === '') {
    throw new InvalidIdeaError({
      source,
      jsonPath: '/name',
      reason:
        'the Idea has no name to use as the tool name; pass one to invertIdea(idea, name) or add "name" to the Idea',
    });
  }
  const inputSchema = findIdeaInput(idea)?.schema ?? { type: 'object', properties: {} };
  const isObjectSchema =
    isPlainObject(inputSchema.properties) ||
    inputSchema.type === 'object' ||
    Object.keys(inputSchema).length === 0;
  if (!isObjectSchema) {
    throw new InvalidIdeaError({
      source,
      jsonPath: '/context (input schema)',
      reason: `the input schema must describe an object (its properties become the tool's params), got type ${JSON.stringify(inputSchema.type)}`,
    });
  }
  const properties: ToolSchema['properties'] = { _tool: { const: toolName } };
  for (const [key, schema] of Object.entries(inputSchema.properties ?? {}))
    properties[key] = schema;
  properties._output = idea.schema;
  const tool: ToolSchema = { type: 'object', properties };
  const description = idea.description ?? inputSchema.description;
  if (description !== undefined) tool.description = description;
  tool.required = ['_tool', ...(inputSchema.required ?? [])];
  if (inputSchema.additionalProperties !== undefined) {
    tool.additionalProperties = inputSchema.additionalProperties;
  }
  if (inputSchema.$defs !== undefined) tool.$defs = inputSchema.$defs;
  if (inputSchema.definitions !== undefined) tool.definitions = inputSchema.definitions;
  return tool;
}
