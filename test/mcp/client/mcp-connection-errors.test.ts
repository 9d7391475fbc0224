import { Executor, McpConnectionError, McpToolError, mcpResources, mcpTools } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { changingStdio, freePort, startEverythingHttp } from './mcp-test-servers';

/**
 * Issue 19, client: what fails outside a tool is typed and names the server — a command that does
 * not exist, a process that is no MCP server, a URL nothing listens on, a closed toolset — and the
 * options that bound a Call (timeout). Plus the SSE fallback for servers older than Streamable HTTP.
 */
describe('mcpTools connection failures', () => {
  it('a command that does not exist: McpConnectionError naming the server (stdio)', async () => {
    const error = await mcpTools({ command: 'ideact-no-such-mcp-server', args: ['--flag'] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({
      code: 'MCP_CONNECTION',
      server: 'ideact-no-such-mcp-server --flag',
      transport: 'stdio',
    });
    expect((error as Error).message).toContain('ENOENT');
    expect((error as Error).message).toMatch(/Check that the command exists/);
  });

  it('a process that exits instead of speaking MCP: its stderr is quoted', async () => {
    const error = await mcpTools({
      command: process.execPath,
      args: ['-e', 'console.error("missing config file"); process.exit(3)'],
      name: 'broken-server',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ server: 'broken-server', transport: 'stdio' });
    expect((error as Error).message).toContain('missing config file');
  });

  it('a URL nothing listens on: McpConnectionError naming the URL (Streamable HTTP)', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const error = await mcpTools({ url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ server: url, transport: 'streamable-http' });
    expect((error as Error).message).toContain('ECONNREFUSED');
    const resources = await mcpResources({ url }, ['x://y']).catch((caught: unknown) => caught);
    expect(resources).toBeInstanceOf(McpConnectionError);
  });

  it('a closed toolset: its Calls fail with McpConnectionError naming server and tool', async () => {
    const toolset = await mcpTools(changingStdio());
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    await toolset.close();
    const [result] = await executor.call({ _tool: 'cancelled-count' }, []);
    expect(result).toMatchObject({ error: { code: 'MCP_CONNECTION' } });
    expect((result as { error: { message: string } }).error.message).toContain('"cancelled-count"');
    expect((result as { error: { message: string } }).error.message).toContain(
      'changing-tools-server.mjs',
    );
  });
});

describe('a server that dies during a Call', () => {
  it('the Call fails with McpConnectionError naming the tool; later Calls too', async () => {
    await using toolset = await mcpTools({ ...changingStdio(), name: 'fragile' });
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    const pid = (toolset.client.transport as { pid?: number | null }).pid!;
    setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
    const [result] = await executor.call({ _tool: 'wait', ms: 10_000 }, []);
    expect(result).toMatchObject({ error: { code: 'MCP_CONNECTION' } });
    expect((result as { error: { message: string } }).error.message).toContain(
      'MCP server "fragile" (stdio) while calling tool "wait"',
    );
    const [later] = await executor.call({ _tool: 'cancelled-count' }, []);
    expect(later).toMatchObject({ error: { code: 'MCP_CONNECTION' } });
  });
});

describe('mcpTools options', () => {
  it('timeoutMs bounds a Call: McpToolError naming the tool', async () => {
    await using toolset = await mcpTools(changingStdio(), { timeoutMs: 300 });
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    const error = await executor
      .call({ toolName: 'wait' }, { ms: 5_000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpToolError);
    expect(error).toMatchObject({ toolName: 'wait', isToolError: false });
    expect((error as Error).message).toContain('no answer within 300 ms');
  });

  it('prefix renames the tools while the server gets its own names; include and exclude filter', async () => {
    await using toolset = await mcpTools(changingStdio(), {
      prefix: 'fx_',
      include: ['wait', 'cancelled-count', 'add-tool'],
      exclude: ['wait'],
    });
    expect(toolset.names).toEqual(['fx_add-tool', 'fx_cancelled-count']);
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    const [result] = await executor.call({ _tool: 'fx_cancelled-count' }, []);
    expect(result).toMatchObject({ output: { cancelled: expect.any(Number) } });
    // A tool added later passes the same filter: not in `include`, so not offered.
    await executor.call({ _tool: 'fx_add-tool', name: 'extra' }, []);
    await toolset.settled();
    expect(toolset.names).toEqual(['fx_add-tool', 'fx_cancelled-count']);
  });
});

describe('what a server cannot do through its schemas', () => {
  it('params named like ideact meta-fields (_activity, _module) are left out, so a Call never reaches a local Activity', async () => {
    await using toolset = await mcpTools(changingStdio(), { include: ['sneaky'] });
    const sneaky = toolset.tools[0]!;
    expect(Object.keys(sneaky.properties).sort()).toEqual(['_output', '_tool', 'text']);
    expect(sneaky.required).toEqual(['_tool', 'text']);
    const deleteEverything = jest.fn(() => 'deleted');
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [toolset],
      activities: [{ deleteEverything }],
    });
    const [result] = await executor.call({ _tool: 'sneaky', text: 'hi' }, []);
    expect(result).toMatchObject({
      output: { content: [{ type: 'text', text: '{"text":"hi"}' }] },
    });
    expect(deleteEverything).not.toHaveBeenCalled();
  });
});

describe('SSE fallback', () => {
  it('a server that only speaks the old SSE transport is reached over SSE', async () => {
    const http = await startEverythingHttp('sse');
    try {
      await using toolset = await mcpTools({
        url: http.server.url.toString().replace('/mcp', '/sse'),
      });
      expect(toolset.transport).toBe('sse');
      const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
      const [echo] = await executor.call({ _tool: 'echo', message: 'old' }, []);
      expect(echo).toMatchObject({ output: { content: [{ type: 'text', text: 'Echo: old' }] } });
    } finally {
      await http.stop();
    }
  });
});
