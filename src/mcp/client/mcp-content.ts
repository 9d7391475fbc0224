import type { JSONSchema } from '../../protocol/json-schema';

/**
 * One piece of what an MCP tool without an `outputSchema` returned, as ideact hands it on: MCP's
 * content blocks with their fields (annotations and `_meta` dropped). Images and audio stay base64.
 */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: McpResourceContents }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** A resource's contents as MCP sends them: text, or binary as base64 `blob`. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/**
 * The output of a Call of an MCP tool that declares no `outputSchema` (with one, the output is its
 * `structuredContent`): the content blocks in the order the server sent them.
 */
export interface McpContentResult {
  content: McpContentBlock[];
}

const resourceContents: JSONSchema = {
  type: 'object',
  properties: {
    uri: { type: 'string' },
    mimeType: { type: 'string' },
    text: { type: 'string' },
    blob: { type: 'string', description: 'base64' },
  },
  required: ['uri'],
};

/** The JSON Schema of {@link McpContentResult}: the `_output` of MCP tools without an `outputSchema`. */
export const MCP_CONTENT_RESULT_SCHEMA: JSONSchema = {
  type: 'object',
  description: 'What the MCP tool returned: its content blocks, in order.',
  properties: {
    content: {
      type: 'array',
      items: {
        anyOf: [
          {
            type: 'object',
            properties: { type: { const: 'text' }, text: { type: 'string' } },
            required: ['type', 'text'],
          },
          {
            type: 'object',
            properties: {
              type: { enum: ['image', 'audio'] },
              data: { type: 'string', description: 'base64' },
              mimeType: { type: 'string' },
            },
            required: ['type', 'data', 'mimeType'],
          },
          {
            type: 'object',
            properties: { type: { const: 'resource' }, resource: resourceContents },
            required: ['type', 'resource'],
          },
          {
            type: 'object',
            properties: {
              type: { const: 'resource_link' },
              uri: { type: 'string' },
              name: { type: 'string' },
              mimeType: { type: 'string' },
              description: { type: 'string' },
            },
            required: ['type', 'uri', 'name'],
          },
        ],
      },
    },
  },
  required: ['content'],
};

/** MCP content blocks as {@link McpContentBlock}s: the documented fields only, unknown types dropped. @internal */
export function toContentBlocks(blocks: readonly Record<string, unknown>[]): McpContentBlock[] {
  const result: McpContentBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        result.push({ type: 'text', text: String(block.text) });
        break;
      case 'image':
      case 'audio':
        result.push({
          type: block.type,
          data: String(block.data),
          mimeType: String(block.mimeType),
        });
        break;
      case 'resource':
        result.push({ type: 'resource', resource: toResourceContents(block.resource) });
        break;
      case 'resource_link': {
        const link: McpContentBlock = {
          type: 'resource_link',
          uri: String(block.uri),
          name: String(block.name),
        };
        if (typeof block.mimeType === 'string') link.mimeType = block.mimeType;
        if (typeof block.description === 'string') link.description = block.description;
        result.push(link);
        break;
      }
      default:
      // A block type newer than this client: left out rather than passed on unchecked.
    }
  }
  return result;
}

/** A resource's contents with the documented fields only. @internal */
export function toResourceContents(value: unknown): McpResourceContents {
  const source = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  const contents: McpResourceContents = { uri: String(source.uri) };
  if (typeof source.mimeType === 'string') contents.mimeType = source.mimeType;
  if (typeof source.text === 'string') contents.text = source.text;
  if (typeof source.blob === 'string') contents.blob = source.blob;
  return contents;
}

/** The text of the text blocks, joined by newlines (what an `isError` result says). @internal */
export function contentText(blocks: readonly Record<string, unknown>[]): string {
  return blocks
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}
