import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createContainer,
  createMcpServer,
  type ActivityFunction,
  type IdeactMcpServer,
  type ToolSchema,
  type Toolset,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 19: a served container whose Tools include a Toolset (as `mcpTools` makes one) whose list
 * changes while a client is connected: the server sends `notifications/tools/list_changed`, and the
 * next `tools/list` holds the new Tool, which can be called.
 */
function echoTool(name: string): ToolSchema {
  return {
    type: 'object',
    properties: { _tool: { const: name }, text: { type: 'string' }, _output: { type: 'string' } },
    required: ['_tool', 'text'],
  };
}

/** A Toolset whose list the test replaces (a new array, as the Toolset contract asks). */
class ChangingToolset implements Toolset {
  tools: readonly ToolSchema[] = [echoTool('first')];
  activities: Record<string, ActivityFunction> = {
    first: (params) => `first: ${String(params.text)}`,
  };

  add(name: string): void {
    this.tools = [...this.tools, echoTool(name)];
    this.activities = { ...this.activities, [name]: (params) => `${name}: ${String(params.text)}` };
  }
}

describe('tools/list_changed for a served Toolset', () => {
  let server: IdeactMcpServer;
  let client: Client;
  const toolset = new ChangingToolset();

  beforeAll(async () => {
    const container = createContainer({ tools: [toolset], provider: new ScriptedProvider([]) });
    server = await createMcpServer(container, { toolListCheckMs: 20 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'list-changed-test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('announces listChanged and notifies the client when the Toolset’s list changes', async () => {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['first']);

    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    toolset.add('second');
    await notified;

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['first', 'second']);
    const result = await client.callTool({ name: 'second', arguments: { text: 'hi' } });
    expect(result.structuredContent).toEqual({ result: 'second: hi' });
  });
});
