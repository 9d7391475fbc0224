import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import {
  createContainer,
  createMcpServer,
  ERROR_META_KEY,
  type ActivityContext,
  type IdeactMcpServer,
  type McpHttpEndpoint,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 19, server over Streamable HTTP, in process: `createMcpServer()` on a folder of Ideas whose
 * module tools run on a ScriptedProvider (R-MOD-1: a clean-room request per module Call), plus Activity
 * tools; driven by the SDK's own Client. Covers progress notifications, cancellation by the client
 * (the Activity's signal aborts), a failing Activity as an `isError` result (R-CALL-5), the Origin
 * check and the bearer token.
 */
const IDEAS = path.join(__dirname, 'fixtures', 'ideas');

const waitTool: ToolSchema = {
  type: 'object',
  description: 'Waits until cancelled.',
  properties: { _tool: { const: 'wait' }, _output: { type: 'string' } },
  required: ['_tool'],
};
const failTool: ToolSchema = {
  type: 'object',
  description: 'Always fails.',
  properties: { _tool: { const: 'fail' }, reason: { type: 'string' } },
  required: ['_tool', 'reason'],
};

/** The body of an `initialize` request, for raw HTTP checks. */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-http', version: '1.0.0' },
  },
});

function postInitialize(url: URL, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: INITIALIZE,
  });
}

async function connectClient(url: URL, headers?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'ideact-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(
      url,
      headers === undefined ? {} : { requestInit: { headers } },
    ),
  );
  return client;
}

describe('createMcpServer over Streamable HTTP (SDK client)', () => {
  let provider: ScriptedProvider;
  let server: IdeactMcpServer;
  let endpoint: McpHttpEndpoint;
  let client: Client;
  const waits: { started: () => void; aborted: (reason: unknown) => void } = {
    started: () => undefined,
    aborted: () => undefined,
  };
  const stalls: { started: () => void; aborted: (reason: unknown) => void } = {
    started: () => undefined,
    aborted: () => undefined,
  };

  beforeAll(async () => {
    provider = new ScriptedProvider((request) => {
      if (JSON.stringify(request.messages).includes('stall')) {
        // A model that never answers: only the request's signal ends it.
        return new Promise((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => {
            stalls.aborted(request.signal?.reason);
            reject(new Error('model request aborted'));
          });
          stalls.started();
        });
      }
      return request.schema.type === 'string'
        ? 'Stay dry, stay bright.'
        : { title: 'Rain on the roof', verses: ['drip', 'drop'] };
    });
    server = await createMcpServer({
      ideasDir: IDEAS,
      provider,
      tools: [waitTool, failTool],
      activities: [
        {
          wait: (_params: Record<string, unknown>, context: ActivityContext) =>
            new Promise<string>((resolve) => {
              context.signal.addEventListener('abort', () => {
                waits.aborted(context.signal.reason);
                resolve('aborted');
              });
              waits.started();
            }),
          fail: (params: Record<string, unknown>) => {
            throw new Error(`refused: ${String(params.reason)}`);
          },
        },
      ],
    });
    endpoint = await server.serveHttp({ port: 0 });
    client = await connectClient(endpoint.url);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('binds 127.0.0.1 and lists the Ideas and Tools with their schemas', async () => {
    expect(endpoint.url.hostname).toBe('127.0.0.1');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['wait', 'fail', 'lyricist', 'slogan']);
    const fail = tools.find((tool) => tool.name === 'fail');
    expect(fail?.inputSchema).toEqual({
      type: 'object',
      properties: { reason: { type: 'string' } },
      required: ['reason'],
    });
    // No `_output`: the output travels as `{ result }` with an unconstrained schema.
    expect(fail?.outputSchema).toEqual({
      type: 'object',
      properties: { result: {} },
      required: ['result'],
    });
  });

  it('runs a module Idea in a clean room on the configured provider and reports progress', async () => {
    const before = provider.requests.length;
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'lyricist', arguments: { topic: 'rain', mood: 'sad' } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.structuredContent).toEqual({
      title: 'Rain on the roof',
      verses: ['drip', 'drop'],
    });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: JSON.stringify({ title: 'Rain on the roof', verses: ['drip', 'drop'] }, null, 2),
      },
    ]);
    // One sub-request, holding the Idea's system text and the call's arguments as its input (R-MOD-3).
    expect(provider.requests.length).toBe(before + 1);
    const sent = JSON.stringify(provider.requests[before].messages);
    expect(sent).toContain('You are a lyricist.');
    expect(sent).toContain('rain');
    expect(sent).toContain('sad');
    // Progress: the start, then the model request's start and end, numbered upwards.
    expect(progress.map((update) => update.message)).toEqual([
      'lyricist: started',
      expect.stringMatching(/^lyricist: model request .+ started$/),
      expect.stringMatching(/^lyricist: model request .+ done$/),
    ]);
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
  });

  it('wraps a string output of a module Idea as { result }', async () => {
    const result = await client.callTool({ name: 'slogan', arguments: { product: 'umbrella' } });
    expect(result.structuredContent).toEqual({ result: 'Stay dry, stay bright.' });
    expect(result.content).toEqual([{ type: 'text', text: 'Stay dry, stay bright.' }]);
  });

  it('answers a failing Activity with an isError result the model can read (R-CALL-5)', async () => {
    const result = await client.callTool({ name: 'fail', arguments: { reason: 'no' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content as Array<{ type: string; text: string }>)[0].text;
    expect(text).toMatch(/^ACTIVITY_FAILED: /);
    expect(text).toContain('refused: no');
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'ACTIVITY_FAILED' });
  });

  it('cancels the Call when the client cancels the request: the Activity sees its signal abort', async () => {
    const started = new Promise<void>((resolve) => (waits.started = resolve));
    const aborted = new Promise<unknown>((resolve) => (waits.aborted = resolve));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await started;
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow(/user pressed stop|abort/i);
    await expect(aborted).resolves.toBeDefined();
    // The session still works after the cancellation.
    const result = await client.callTool({ name: 'slogan', arguments: { product: 'boots' } });
    expect(result.structuredContent).toEqual({ result: 'Stay dry, stay bright.' });
  });

  it('cancels a module Idea’s model request when the client cancels (after its progress said it started)', async () => {
    const started = new Promise<void>((resolve) => (stalls.started = resolve));
    const aborted = new Promise<unknown>((resolve) => (stalls.aborted = resolve));
    const progress: string[] = [];
    let progressed: () => void = () => undefined;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'lyricist', arguments: { topic: 'stall', mood: 'sad' } },
      undefined,
      {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.message ?? '');
          progressed();
        },
      },
    );
    // The model request is under way and the client has heard of the call's start.
    await Promise.all([started, firstProgress]);
    expect(progress[0]).toBe('lyricist: started');
    controller.abort('enough');
    await expect(call).rejects.toThrow(/enough|abort/i);
    await expect(aborted).resolves.toBeDefined();
  });

  it('answers arguments that do not match the inputSchema with an isError result naming the path (SEP-1303), before any model request', async () => {
    const before = provider.requests.length;
    const result = await client.callTool({
      name: 'lyricist',
      arguments: { topic: '', mood: 'sad', extra: 1 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^INVALID_PARAMS: invalid arguments for tool "lyricist":/);
    expect(textOf(result)).toMatch(/\/topic: .*1 character/);
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
      code: 'INVALID_PARAMS',
      tool: 'lyricist',
      issues: expect.arrayContaining([expect.objectContaining({ path: '/topic' })]),
    });
    expect(provider.requests.length).toBe(before);
  });

  it('refuses a foreign Origin with 403 and accepts loopback origins', async () => {
    const foreign = await postInitialize(endpoint.url, { Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('Forbidden origin http://evil.example');
    const local = await postInitialize(endpoint.url, { Origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    await local.body?.cancel();
  });
});

describe('createMcpServer over HTTP with a bearer token (container source)', () => {
  let server: IdeactMcpServer;
  let endpoint: McpHttpEndpoint;

  beforeAll(async () => {
    const container = createContainer({
      tools: [
        {
          type: 'object',
          properties: {
            _tool: { const: 'echo' },
            text: { type: 'string' },
            _output: { type: 'object', properties: { text: { type: 'string' } } },
          },
          required: ['_tool', 'text'],
        },
      ],
      activities: [{ echo: (params: Record<string, unknown>) => ({ text: params.text }) }],
      provider: new ScriptedProvider([]),
    });
    server = await createMcpServer(container);
    endpoint = await server.serveHttp({ port: 0, token: 's3cret' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers 401 without the token or with a wrong one', async () => {
    const missing = await postInitialize(endpoint.url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await postInitialize(endpoint.url, { Authorization: 'Bearer guess' });
    expect(wrong.status).toBe(401);
  });

  it('serves a client that sends the token', async () => {
    const client = await connectClient(endpoint.url, { Authorization: 'Bearer s3cret' });
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.structuredContent).toEqual({ text: 'hi' });
    } finally {
      await client.close();
    }
  });
});

/** The text of a tool result's first content block. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text: string }>)[0]!.text;
}
