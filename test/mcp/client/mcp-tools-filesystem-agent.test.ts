import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgent, mcpTools, type McpToolset, type ProviderRequest } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { filesystemStdio } from './mcp-test-servers';

/**
 * Issue 19, client: an agent run uses the reference `server-filesystem` through `mcpTools`, with
 * a prefix and an allow-list: the model (ScriptedProvider) reads a file the test wrote, and the
 * file's text reaches the model's next request (the Call's result) and from there the output.
 */
describe('mcpTools(server-filesystem) in an agent run', () => {
  let directory: string;
  let toolset: McpToolset;

  beforeAll(async () => {
    // The server resolves symlinks (macOS /tmp → /private/tmp): give it the real path.
    directory = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ideact-mcp-fs-')));
    writeFileSync(path.join(directory, 'note.txt'), 'The launch code is 4711.\n');
    toolset = await mcpTools(filesystemStdio(directory), {
      prefix: 'fs_',
      include: ['read_text_file', 'list_directory', 'write_file'],
      exclude: ['write_file'],
    });
  });

  afterAll(async () => {
    await toolset?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('offers only the allowed tools, under the prefix, with their MCP schemas', () => {
    expect([...toolset.names].sort()).toEqual(['fs_list_directory', 'fs_read_text_file']);
    const read = toolset.tools.find((tool) => tool.properties._tool.const === 'fs_read_text_file')!;
    expect(read.properties.path).toEqual({ type: 'string' });
    expect(read.required).toEqual(['_tool', 'path']);
    expect(read.properties._output).toMatchObject({
      type: 'object',
      properties: { content: { type: 'string' } },
      required: ['content'],
    });
  });

  it('the agent reads the file: its content reaches the next request and the output', async () => {
    const file = path.join(directory, 'note.txt');
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'fs_read_text_file', path: file }], output: null },
      (request: ProviderRequest) => {
        const prompt = request.messages.map((message) => message.content).join('\n');
        const code = /launch code is (\d+)/.exec(prompt)?.[1] ?? 'unknown';
        return { calls: [], output: `The code is ${code}.` };
      },
    ]);
    const agent = createAgent({ tools: [toolset], provider });
    const result = await agent.run({ task: 'What does note.txt in the folder say?' });
    expect(result.output).toBe('The code is 4711.');
    expect(JSON.stringify(provider.requests[1]!.messages)).toContain('The launch code is 4711.');
    expect(JSON.stringify(provider.requests[0]!.messages)).not.toContain('4711');
  });

  it("a path outside the allowed folder is the tool's error, which the model sees", async () => {
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'fs_read_text_file', path: '/etc/passwd' }], output: null },
      (request: ProviderRequest) => {
        const prompt = request.messages.map((message) => message.content).join('\n');
        return { calls: [], output: prompt.includes('MCP_TOOL_ERROR') ? 'refused' : 'read' };
      },
    ]);
    const agent = createAgent({ tools: [toolset], provider });
    const result = await agent.run({ task: 'Read /etc/passwd.' });
    expect(result.output).toBe('refused');
    expect(JSON.stringify(provider.requests[1]!.messages)).toMatch(/outside allowed directories/i);
  });
});
