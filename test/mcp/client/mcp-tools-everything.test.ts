import {
  Executor,
  McpResourceError,
  McpToolError,
  mcpTools,
  mcpResources,
  type McpToolset,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { everythingStdio, startEverythingHttp, type HttpServerProcess } from './mcp-test-servers';

/**
 * Issue 19, client: the tools of the MCP reference server `server-everything` as ideact Tools, over
 * stdio and Streamable HTTP — the schema mapping, structured and content outputs, a tool's error as
 * a Call error (R-CALL-5), a long-running tool cancelled by the caller's abort, resources as data.
 */
describe.each(['stdio', 'streamable-http'] as const)(
  'mcpTools against server-everything (%s)',
  (transport) => {
    let http: HttpServerProcess | undefined;
    let toolset: McpToolset;
    let executor: Executor;

    beforeAll(async () => {
      if (transport === 'stdio') {
        toolset = await mcpTools(everythingStdio());
      } else {
        http = await startEverythingHttp();
        toolset = await mcpTools(http.server);
      }
      executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    });

    afterAll(async () => {
      await toolset?.close();
      await http?.stop();
    });

    it('connects over the expected transport and lists the tools with their schemas', () => {
      expect(toolset.transport).toBe(transport);
      expect(toolset.names).toEqual(
        expect.arrayContaining([
          'echo',
          'get-structured-content',
          'get-sum',
          'trigger-long-running-operation',
        ]),
      );
      const structured = toolset.tools.find(
        (tool) => tool.properties._tool.const === 'get-structured-content',
      )!;
      // inputSchema → params, outputSchema → _output, description kept.
      expect(structured.description).toBe(
        'Returns structured content along with an output schema for client data validation',
      );
      expect(structured.properties.location).toMatchObject({
        type: 'string',
        enum: ['New York', 'Chicago', 'Los Angeles'],
      });
      expect(structured.required).toEqual(['_tool', 'location']);
      expect(structured.properties._output).toMatchObject({
        type: 'object',
        properties: {
          temperature: { type: 'number' },
          conditions: { type: 'string' },
          humidity: { type: 'number' },
        },
        required: ['temperature', 'conditions', 'humidity'],
      });
      expect(executor.tools.map((tool) => tool.properties._tool.const)).toEqual(toolset.names);
    });

    it('returns structuredContent as the output of a tool with an outputSchema', async () => {
      const [result] = await executor.call(
        { _tool: 'get-structured-content', location: 'Chicago' },
        [],
      );
      expect(result).toEqual({
        type: 'result',
        call: { _tool: 'get-structured-content', location: 'Chicago' },
        output: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
      });
    });

    it('returns the content blocks of a tool without an outputSchema', async () => {
      const [echo] = await executor.call({ _tool: 'echo', message: 'hi from ideact' }, []);
      expect(echo).toMatchObject({
        output: { content: [{ type: 'text', text: 'Echo: hi from ideact' }] },
      });
      const [reference] = await executor.call(
        { _tool: 'get-resource-reference', resourceId: 2 },
        [],
      );
      const content = (reference as { output: { content: Array<Record<string, unknown>> } }).output
        .content;
      expect(content).toContainEqual({
        type: 'resource',
        resource: {
          uri: 'demo://resource/dynamic/text/2',
          mimeType: 'text/plain',
          text: expect.stringContaining('2'),
        },
      });
    });

    it('makes an isError result a Call error the model sees, naming server and tool (R-CALL-5)', async () => {
      const [result] = await executor.call({ _tool: 'get-resource-reference', resourceId: 0 }, []);
      expect(result).toMatchObject({ type: 'result', error: { code: 'MCP_TOOL_ERROR' } });
      const message = (result as { error: { message: string } }).error.message;
      expect(message).toContain('"get-resource-reference"');
      expect(message).toContain('Invalid resourceId: 0');
      expect(message).toContain(toolset.server);
      // The typed form rejects with the class.
      const error = await executor
        .call({ toolName: 'get-resource-reference' }, { resourceId: 0 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpToolError);
      expect(error).toMatchObject({
        toolName: 'get-resource-reference',
        isToolError: true,
        server: toolset.server,
      });
    });

    it('cancels a long-running tool when the caller aborts, and stays usable', async () => {
      const controller = new AbortController();
      const started = Date.now();
      const pending = executor.call(
        { _tool: 'trigger-long-running-operation', duration: 20, steps: 4 },
        [],
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(), 200);
      const [result] = await pending;
      expect(result).toMatchObject({ error: { code: 'CALL_CANCELLED' } });
      expect(Date.now() - started).toBeLessThan(5_000);
      const [after] = await executor.call({ _tool: 'get-sum', a: 2, b: 3 }, []);
      expect(after).toMatchObject({
        output: { content: [{ type: 'text', text: expect.stringContaining('5') }] },
      });
    });

    it('reads resources into data messages', async () => {
      const messages = await mcpResources(toolset, ['demo://resource/dynamic/text/1']);
      expect(messages).toEqual([
        {
          type: 'data',
          data: {
            uri: 'demo://resource/dynamic/text/1',
            mimeType: 'text/plain',
            text: expect.stringContaining('1'),
          },
          description: `MCP resource demo://resource/dynamic/text/1 from server "${toolset.server}"`,
        },
      ]);
    });

    it('a resource the server cannot read: McpResourceError naming server and URI', async () => {
      const error = await mcpResources(toolset, ['demo://resource/dynamic/text/0']).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(McpResourceError);
      expect(error).toMatchObject({
        uri: 'demo://resource/dynamic/text/0',
        server: toolset.server,
      });
    });
  },
);

describe('mcpResources with a server config', () => {
  it('connects for the reads and returns text and blob contents as data messages', async () => {
    const messages = await mcpResources(everythingStdio(), [
      'demo://resource/dynamic/text/3',
      'demo://resource/dynamic/blob/3',
    ]);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      type: 'data',
      data: { uri: 'demo://resource/dynamic/text/3', text: expect.any(String) },
    });
    const blob = messages[1]!.data as { uri: string; blob?: string; text?: string };
    expect(blob.uri).toBe('demo://resource/dynamic/blob/3');
    expect(Buffer.from(blob.blob!, 'base64').length).toBeGreaterThan(0);
    expect(blob.text).toBeUndefined();
  });
});
