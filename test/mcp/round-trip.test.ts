import * as path from 'node:path';
import {
  createContainer,
  createMcpServer,
  Executor,
  mcpTools,
  McpToolError,
  type IdeactMcpServer,
  type McpToolset,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 19, round trip: ideact Tools served by `createMcpServer` (and by the built CLI over stdio)
 * and consumed back through `mcpTools` keep their params, their `_output` schema and their structured
 * outputs exactly — object outputs as they are, non-object ones unwrapped from `{ result }` again
 * (the `ideact/outputWrapper` convention). Failures stay Call errors (R-CALL-5).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(__dirname, 'server', 'fixtures');

const forecastTool: ToolSchema = {
  type: 'object',
  description: 'Forecast for a city over some days.',
  properties: {
    _tool: { const: 'forecast' },
    city: { type: 'string', minLength: 1 },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    _output: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        temperatures: { type: 'array', items: { type: 'number' } },
        note: { type: ['string', 'null'] },
      },
      required: ['city', 'temperatures', 'note'],
    },
  },
  required: ['_tool', 'city', 'days'],
};
const tagsTool: ToolSchema = {
  type: 'object',
  description: 'Tags of a text.',
  properties: {
    _tool: { const: 'tags' },
    text: { type: 'string' },
    _output: { type: 'array', items: { type: 'string' } },
  },
  required: ['_tool', 'text'],
};
const brokenTool: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'broken' }, _output: { type: 'string' } },
  required: ['_tool'],
};

const activities = {
  forecast: (params: Record<string, unknown>) => ({
    city: params.city,
    temperatures: Array.from({ length: Number(params.days) }, (_, day) => 10 + day * 1.5),
    note: null,
  }),
  tags: (params: Record<string, unknown>) => String(params.text).split(/\s+/),
  broken: () => {
    throw new Error('the broken tool broke');
  },
};

/** The round-tripped Tool (the client's copy) without its `_tool` name, which may carry a prefix. */
function withoutName(tool: ToolSchema | undefined): unknown {
  if (tool === undefined) return undefined;
  const { _tool: _name, ...properties } = tool.properties;
  return { ...tool, properties };
}

describe('round trip: ideact client ⇄ ideact server over Streamable HTTP', () => {
  let server: IdeactMcpServer;
  let toolset: McpToolset;
  let executor: Executor;

  beforeAll(async () => {
    const container = createContainer({
      tools: [forecastTool, tagsTool, brokenTool],
      activities: [activities],
      provider: new ScriptedProvider([]),
    });
    server = await createMcpServer(container);
    const endpoint = await server.serveHttp({ port: 0 });
    toolset = await mcpTools({ url: endpoint.url });
    executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
  });

  afterAll(async () => {
    await toolset?.close();
    await server?.close();
  });

  it('gives back the same params and _output schemas', () => {
    const byName = Object.fromEntries(
      toolset.tools.map((tool) => [String(tool.properties._tool.const), tool]),
    );
    for (const original of [forecastTool, tagsTool]) {
      const name = String(original.properties._tool.const);
      expect(withoutName(byName[name])).toEqual(withoutName(original));
    }
  });

  it('returns an object output exactly as the Activity made it', async () => {
    const run = await executor.run({ _tool: 'forecast', city: 'Oslo', days: 3 }, []);
    expect(run.error).toBeUndefined();
    expect(run.output).toEqual({ city: 'Oslo', temperatures: [10, 11.5, 13], note: null });
  });

  it('returns a non-object output unwrapped, as the Activity made it', async () => {
    const [result] = await executor.call({ _tool: 'tags', text: 'rain on the roof' }, []);
    expect(result).toMatchObject({ type: 'result', output: ['rain', 'on', 'the', 'roof'] });
  });

  it('keeps a failing Activity a Call error naming the tool (R-CALL-5)', async () => {
    const run = await executor.run({ _tool: 'broken' }, []);
    expect(run.error).toBeDefined();
    expect(McpToolError.isInstance(run.error)).toBe(true);
    expect(run.error?.message).toContain('the broken tool broke');
  });
});

describe('round trip: mcpTools ⇄ `ideact mcp serve` over stdio', () => {
  let toolset: McpToolset;
  let executor: Executor;

  beforeAll(async () => {
    toolset = await mcpTools({
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
    });
    executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
  });

  afterAll(async () => {
    await toolset?.close();
  });

  it('serves the config’s Tools and the Ideas back as Tools with their schemas', () => {
    const slogan = toolset.tools.find((tool) => tool.properties._tool.const === 'slogan');
    expect(slogan?.properties._output).toEqual({ type: 'string', maxLength: 80 });
    expect(slogan?.properties.product).toEqual({ type: 'string' });
    expect(slogan?.required).toEqual(['_tool', 'product']);
  });

  it('preserves structured and wrapped outputs through the built CLI', async () => {
    const weather = await executor.run({ _tool: 'weather', city: 'Oslo', unit: 'F' }, []);
    expect(weather.output).toEqual({ city: 'Oslo', temperature: 64.4, unit: 'F' });
    const sum = await executor.run({ _tool: 'add', a: 0.5, b: 0.25 }, []);
    expect(sum.output).toBe(0.75);
  });
});
