import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createContainer, createMcpServer, type IdeactMcpServer, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 19, the Tool → MCP tool mapping on shapes the fixtures do not have: `$ref`s into the Tool's
 * root `$defs` and `_output`'s own (they must still resolve in inputSchema and outputSchema, wrapped or not — the SDK
 * client validates structuredContent against outputSchema), a latent inline Tool (run on the provider,
 * since no MCP client writes `_output` inline as a model would), meta-fields as arguments, and an
 * unknown tool. Connected
 * with `server.connect()` over the SDK's in-memory transport.
 */
const point = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' } },
  required: ['x', 'y'],
  additionalProperties: false,
};
const midpointTool: ToolSchema = {
  type: 'object',
  $defs: { point },
  properties: {
    _tool: { const: 'midpoint' },
    from: { $ref: '#/$defs/point' },
    to: { $ref: '#/$defs/point' },
    // The executor validates `_output` on its own: its `$ref`s need its own `$defs`.
    _output: {
      type: 'object',
      properties: { mid: { $ref: '#/$defs/point' } },
      required: ['mid'],
      $defs: { point },
    },
  },
  required: ['_tool', 'from', 'to'],
};
const cornersTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'corners' },
    size: { type: 'number' },
    _output: { type: 'array', items: { $ref: '#/$defs/point' }, $defs: { point } },
  },
  required: ['_tool', 'size'],
};
const guessTool: ToolSchema = {
  type: 'object',
  description: 'Latent: the model writes the output inline.',
  properties: {
    _tool: { const: 'guess' },
    topic: { type: 'string' },
    _activity: { const: '' },
    _output: { type: 'string' },
  },
  required: ['_tool', 'topic'],
};

describe('the MCP tool mapping ($defs, wrapped outputs, latent tools)', () => {
  let server: IdeactMcpServer;
  let client: Client;
  const provider = new ScriptedProvider(() => 'Probably more rain.');

  beforeAll(async () => {
    const container = createContainer({
      tools: [midpointTool, cornersTool, guessTool],
      activities: [
        {
          midpoint: (params: Record<string, unknown>) => {
            const from = params.from as { x: number; y: number };
            const to = params.to as { x: number; y: number };
            return { mid: { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 } };
          },
          corners: (params: Record<string, unknown>) => {
            const size = Number(params.size);
            return [
              { x: 0, y: 0 },
              { x: size, y: size },
            ];
          },
        },
      ],
      provider,
    });
    server = await createMcpServer(container, { name: 'geometry', version: '9.9.9' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'mapping-test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('introduces itself with the given name and version', () => {
    expect(client.getServerVersion()).toEqual({ name: 'geometry', version: '9.9.9' });
  });

  it('keeps $defs with inputSchema and outputSchema (hoisted when wrapped), so their $refs resolve', async () => {
    const { tools } = await client.listTools();
    const midpoint = tools.find((tool) => tool.name === 'midpoint');
    expect(midpoint?.inputSchema).toEqual({
      type: 'object',
      properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
      required: ['from', 'to'],
      $defs: { point },
    });
    expect(midpoint?.outputSchema).toEqual({
      ...midpointTool.properties._output,
      $defs: { point },
    });
    const corners = tools.find((tool) => tool.name === 'corners');
    expect(corners?.outputSchema).toEqual({
      type: 'object',
      properties: { result: cornersTool.properties._output },
      required: ['result'],
      // Hoisted to the wrapper: `#/$defs/point` resolves against the document root.
      $defs: { point },
    });
    // The SDK client checks structuredContent against these schemas: a broken $ref would throw here.
    const mid = await client.callTool({
      name: 'midpoint',
      arguments: { from: { x: 0, y: 0 }, to: { x: 4, y: 2 } },
    });
    expect(mid.structuredContent).toEqual({ mid: { x: 2, y: 1 } });
    const square = await client.callTool({ name: 'corners', arguments: { size: 3 } });
    expect(square.structuredContent).toEqual({
      result: [
        { x: 0, y: 0 },
        { x: 3, y: 3 },
      ],
    });
  });

  it('validates arguments through the $refs: the isError result names the nested path (SEP-1303)', async () => {
    const result = await client.callTool({
      name: 'midpoint',
      arguments: { from: { x: 0 }, to: { x: 1, y: 'up' } },
    });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/\/from: must have required property 'y'[\s\S]*\/to\/y/);
  });

  it('runs a latent inline tool on the provider as an anonymous module: no client fills _output (R-MOD-1)', async () => {
    const before = provider.requests.length;
    const result = await client.callTool({ name: 'guess', arguments: { topic: 'rain' } });
    expect(result.structuredContent).toEqual({ result: 'Probably more rain.' });
    expect(provider.requests.length).toBe(before + 1);
    const sent = JSON.stringify(provider.requests[before].messages);
    expect(sent).toContain('Latent: the model writes the output inline.');
    expect(sent).toContain('rain');
  });

  it('refuses ideact meta-fields as arguments (an isError result naming them, nothing runs)', async () => {
    const before = provider.requests.length;
    const result = await client.callTool({
      name: 'guess',
      arguments: { topic: 'rain', _output: 'forged' },
    });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('/_output: is an ideact meta-field, not an argument');
    expect(provider.requests.length).toBe(before);
  });

  it('rejects an unknown tool with a protocol error (InvalidParams) listing the known ones, prefixed once', async () => {
    const rejection = client.callTool({ name: 'area', arguments: {} });
    await expect(rejection).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message:
        'MCP error -32602: Unknown tool "area". Known tools: midpoint, corners, guess; call tools/list to see them.',
    });
  });
});

/** The text of a tool result's first content block. */
function firstText(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text: string }>)[0]!.text;
}
