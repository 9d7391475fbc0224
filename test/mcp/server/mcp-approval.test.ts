import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createContainer,
  createMcpServer,
  ERROR_META_KEY,
  OfflineProvider,
  type IdeactMcpServer,
  type McpServerOptions,
  type ToolSchema,
} from 'ideact';

/**
 * Issue 27 item 2: a Tool that needs approval is never run by an MCP server without one. The server
 * asks a client that declares `elicitation` (accept runs it once, decline or cancel is an isError
 * result saying so), refuses for a client that cannot be asked, and runs it unasked only with the
 * explicit opt-out `approval: 'skip'` (a warning at start). The side effect is a line in a file.
 */
const deleteFile: ToolSchema = {
  type: 'object',
  description: 'Deletes a file.',
  needsApproval: true,
  properties: { _tool: { const: 'deleteFile' }, path: { type: 'string' } },
  required: ['_tool', 'path'],
} as ToolSchema;
const ping: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'ping' }, _output: { type: 'string' } },
  required: ['_tool'],
};

let directory: string;
let effects: string;
const servers: IdeactMcpServer[] = [];

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'ideact-mcp-approval-'));
  effects = path.join(directory, 'effects.txt');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const lines = (): string[] =>
  existsSync(effects) ? readFileSync(effects, 'utf8').split('\n').filter(Boolean) : [];

/** A server over an in-memory transport, and a client that answers elicitation with `answer`. */
async function connect(
  answer: ElicitResult['action'] | undefined,
  options: McpServerOptions = {},
): Promise<{ client: Client; asked: string[] }> {
  const { appendFileSync } = await import('node:fs');
  const server = await createMcpServer(
    createContainer({
      tools: [deleteFile, ping],
      activities: [
        {
          deleteFile: (params: Record<string, unknown>) => {
            appendFileSync(effects, `${String(params.path)}\n`);
            return { deleted: params.path };
          },
          ping: () => 'pong',
        },
      ],
      provider: new OfflineProvider(),
    }),
    options,
  );
  servers.push(server);
  const client = new Client(
    { name: 'approval-test', version: '1.0.0' },
    answer === undefined ? {} : { capabilities: { elicitation: {} } },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: answer };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, asked };
}

const errorOf = (result: Awaited<ReturnType<Client['callTool']>>) => ({
  isError: result.isError,
  code: (result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code,
  text: (result.content as Array<{ text: string }>)[0]!.text,
});

describe('MCP approval by elicitation (issue 27 item 2)', () => {
  it('lists a Tool that needs approval with destructiveHint: true (and others without it)', async () => {
    const { client } = await connect(undefined);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.deleteFile!.annotations).toEqual({ destructiveHint: true });
    expect(byName.ping!.annotations).toBeUndefined();
  });

  it('accept: asks once, showing the tool and its arguments, then runs it once', async () => {
    const { client, asked } = await connect('accept');
    const result = await client.callTool({ name: 'deleteFile', arguments: { path: 'a.txt' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ result: { deleted: 'a.txt' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"deleteFile"');
    expect(asked[0]).toContain('"path": "a.txt"');
    expect(lines()).toEqual(['a.txt']);
  });

  it.each(['decline', 'cancel'] as const)(
    '%s: an isError result saying so; the tool does not run',
    async (answer) => {
      const { client, asked } = await connect(answer);
      const result = await client.callTool({ name: 'deleteFile', arguments: { path: 'b.txt' } });
      expect(errorOf(result)).toMatchObject({ isError: true, code: 'CALL_REJECTED' });
      expect(errorOf(result).text).toContain(
        answer === 'decline' ? 'declined the approval' : 'cancelled the approval',
      );
      expect(asked).toHaveLength(1);
      expect(lines()).toEqual([]);
    },
  );

  it('a client without elicitation cannot be asked: APPROVAL_REQUIRED naming the tool, nothing runs', async () => {
    const { client } = await connect(undefined);
    const result = await client.callTool({ name: 'deleteFile', arguments: { path: 'c.txt' } });
    expect(errorOf(result)).toMatchObject({ isError: true, code: 'APPROVAL_REQUIRED' });
    expect(errorOf(result).text).toContain('"deleteFile" needs approval before it runs');
    expect(lines()).toEqual([]);
  });

  it('a Tool that needs no approval runs without asking', async () => {
    const { client, asked } = await connect('decline');
    const result = await client.callTool({ name: 'ping', arguments: {} });
    expect(result.structuredContent).toEqual({ result: 'pong' });
    expect(asked).toEqual([]);
  });

  it("approval: 'skip' runs it unasked, and warns at start", async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const { client, asked } = await connect('decline', { approval: 'skip' });
      expect(emitWarning).toHaveBeenCalledWith(
        expect.stringContaining('WITHOUT asking anyone'),
        expect.objectContaining({ code: 'IDEACT_MCP_APPROVAL_SKIPPED' }),
      );
      const result = await client.callTool({ name: 'deleteFile', arguments: { path: 'd.txt' } });
      expect(result.isError).toBeUndefined();
      expect(asked).toEqual([]);
      expect(lines()).toEqual(['d.txt']);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('the container’s needsApproval predicate makes any Tool ask (here: ping with a flag)', async () => {
    const server = await createMcpServer(
      createContainer({
        tools: [ping],
        activities: [{ ping: () => 'pong' }],
        provider: new OfflineProvider(),
        needsApproval: (call) => call._tool === 'ping',
      }),
    );
    servers.push(server);
    const client = new Client({ name: 'predicate-test', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'ping', arguments: {} });
    expect(errorOf(result)).toMatchObject({ isError: true, code: 'APPROVAL_REQUIRED' });
  });
});
