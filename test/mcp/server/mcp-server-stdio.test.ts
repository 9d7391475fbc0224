import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ERROR_META_KEY, OUTPUT_WRAPPER_META_KEY } from 'ideact';

/**
 * Issue 19, server over stdio: the built CLI (`node dist/cli/main.js mcp serve`, so run `npm run
 * build` first) driven by the SDK's own Client. Its tools are the config's Activity Tools and the
 * folder's Ideas inverted into module Tools (R-TOOL-1); schemas, outputs and argument errors are
 * checked as an MCP client sees them. The provider is `offline` (no network, no model).
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const FIXTURES = path.join(__dirname, 'fixtures');

describe('ideact mcp serve over stdio (SDK client)', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(ROOT, 'dist', 'cli', 'main.js'),
        'mcp',
        'serve',
        '--ideas',
        path.join(FIXTURES, 'ideas'),
        '--config',
        path.join(FIXTURES, 'weather-config.cjs'),
        '--provider',
        'offline',
      ],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'ideact-test', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists the config’s Tools and the folder’s Ideas with their params as inputSchema and _output as outputSchema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['weather', 'add', 'lyricist', 'slogan']);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    // The weather Tool's params (its non-`_` properties and required) and its object `_output`, as written in the config.
    const config = jest.requireActual<{ tools: Array<{ properties: Record<string, unknown> }> }>(
      path.join(FIXTURES, 'weather-config.cjs'),
    );
    const weather = config.tools[0].properties;
    expect(byName.weather.description).toBe('Current weather of a city.');
    expect(byName.weather.inputSchema).toEqual({
      type: 'object',
      properties: { city: weather.city, unit: weather.unit },
      required: ['city'],
    });
    expect(byName.weather.outputSchema).toEqual(weather._output);
    expect(byName.weather._meta).toBeUndefined();
    // A number `_output` is wrapped: MCP output schemas are objects.
    expect(byName.add.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'number' } },
      required: ['result'],
    });
    expect(byName.add._meta).toEqual({ [OUTPUT_WRAPPER_META_KEY]: 'result' });
    // R-TOOL-1: an Idea's input schema becomes the params, its schema the output.
    const lyricist = jest.requireActual<{
      context: Array<{ type: string; schema?: unknown }>;
      schema: unknown;
    }>(path.join(FIXTURES, 'ideas', 'lyricist.idea.json'));
    expect(byName.lyricist.inputSchema).toEqual(
      lyricist.context.find((message) => message.type === 'input')?.schema,
    );
    expect(byName.lyricist.outputSchema).toEqual(lyricist.schema);
    expect(byName.slogan.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'string', maxLength: 80 } },
      required: ['result'],
    });
  });

  it('runs an Activity tool and answers structuredContent plus a text rendering', async () => {
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ city: 'Oslo', temperature: 18.4, unit: 'C' });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: JSON.stringify({ city: 'Oslo', temperature: 18.4, unit: 'C' }, null, 2),
      },
    ]);
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(sum.structuredContent).toEqual({ result: 42 });
    expect(sum.content).toEqual([{ type: 'text', text: '42' }]);
  });

  it('runs a module Idea through the provider (offline here) and returns its schema-valid output', async () => {
    const result = await client.callTool({
      name: 'lyricist',
      arguments: { topic: 'rain', mood: 'sad' },
    });
    expect(result.isError).toBeUndefined();
    // The offline provider fills the schema with placeholders; the SDK client validated it against outputSchema.
    expect(result.structuredContent).toEqual({
      title: expect.any(String),
      verses: expect.any(Array),
    });
  });

  it('answers invalid arguments with an isError result naming the JSON path (SEP-1303)', async () => {
    const result = await client.callTool({ name: 'weather', arguments: { city: 42 } });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text).toContain('/city: must be string');
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
      code: 'INVALID_PARAMS',
      tool: 'weather',
      issues: [{ path: '/city' }],
    });
    const enumResult = await client.callTool({
      name: 'lyricist',
      arguments: { topic: 'rain', mood: 'bored' },
    });
    expect(enumResult.isError).toBe(true);
    expect((enumResult.content as Array<{ text: string }>)[0]!.text).toContain('/mood');
  });

  it('keeps stdout for the protocol: its messages go to stderr', () => {
    expect(stderr).toContain('ideact mcp serve: serving weather, add, lyricist, slogan on stdio');
  });
});
