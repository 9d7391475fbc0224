import {
  createAgent,
  Executor,
  mcpTools,
  type Call,
  type JSONSchema,
  type McpToolset,
  type ProviderRequest,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { changingStdio, startChangingHttp, type HttpServerProcess } from './mcp-test-servers';

/**
 * Issue 19, client: the tool list follows `notifications/tools/list_changed` — an Executor and a
 * running agent see a tool the server added at their next Call / request — and aborting a Call
 * cancels it on the server (notifications/cancelled). Against a local fixture server (the everything
 * server announces list changes only during its handshake), over stdio and Streamable HTTP.
 */
const vessel = (calls: Call[], output: unknown = null) => ({ calls, output });

/** The tool names a request's Vessel schema offers. */
function offeredTools(schema: JSONSchema): string[] {
  const calls = schema.properties!.calls as JSONSchema;
  const items = calls.items as JSONSchema;
  const variants = (items.anyOf ?? items.oneOf ?? [items]) as JSONSchema[];
  return variants.map((variant) => String((variant.properties!._tool as JSONSchema).const));
}

describe.each(['stdio', 'streamable-http'] as const)(
  'tools/list_changed and cancellation (%s)',
  (transport) => {
    let http: HttpServerProcess | undefined;
    let toolset: McpToolset;

    beforeAll(async () => {
      if (transport === 'streamable-http') http = await startChangingHttp();
      toolset = await mcpTools(http?.server ?? changingStdio());
    });

    afterAll(async () => {
      await toolset?.close();
      await http?.stop();
    });

    it('an Executor offers a tool the server added, at its next Call', async () => {
      const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
      const before = toolset.tools;
      expect(executor.tools.map((tool) => tool.properties._tool.const)).not.toContain('greeter');
      const [added] = await executor.call({ _tool: 'add-tool', name: 'greeter' }, []);
      expect(added).toMatchObject({
        output: { content: [{ type: 'text', text: 'added greeter' }] },
      });
      await toolset.settled();
      expect(toolset.tools).not.toBe(before);
      expect(executor.tools.map((tool) => tool.properties._tool.const)).toContain('greeter');
      const [greeted] = await executor.call({ _tool: 'greeter', who: 'Ada' }, []);
      expect(greeted).toMatchObject({
        output: { content: [{ type: 'text', text: 'hello Ada from greeter' }] },
      });
    });

    it('a running agent sees the new tool in its next request and can call it', async () => {
      const provider = new ScriptedProvider([
        vessel([{ _tool: 'add-tool', name: 'helper' }]),
        vessel([{ _tool: 'helper', who: 'Grace' }]),
        (request: ProviderRequest) => {
          const text = request.messages.map((message) => message.content).join('\n');
          return vessel([], /hello Grace from helper/.exec(text)?.[0] ?? 'not seen');
        },
      ]);
      const agent = createAgent({ tools: [toolset], provider });
      const result = await agent.run({ task: 'Add a helper tool, then let it greet Grace.' });
      expect(result.output).toBe('hello Grace from helper');
      expect(offeredTools(provider.requests[0]!.schema)).not.toContain('helper');
      expect(offeredTools(provider.requests[1]!.schema)).toContain('helper');
    });

    it('aborting a Call cancels the request on the server', async () => {
      const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
      const count = async (): Promise<number> => {
        const [result] = await executor.call({ _tool: 'cancelled-count' }, []);
        return (result as { output: { cancelled: number } }).output.cancelled;
      };
      const before = await count();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const [result] = await executor.call({ _tool: 'wait', ms: 10_000 }, [], {
        signal: controller.signal,
      });
      expect(result).toMatchObject({ error: { code: 'CALL_CANCELLED' } });
      expect(Date.now() - started).toBeLessThan(3_000);
      // notifications/cancelled travels on its own (a separate POST over HTTP): poll briefly.
      let after = await count();
      for (let attempt = 0; attempt < 20 && after === before; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await count();
      }
      expect(after).toBe(before + 1);
    });

    it('an output that breaks the outputSchema is a typed error naming the tool', async () => {
      const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
      const [result] = await executor.call({ _tool: 'bad-output' }, []);
      expect(result).toMatchObject({ error: { code: 'INVALID_ACTIVITY_OUTPUT' } });
      expect((result as { error: { message: string } }).error.message).toContain('"bad-output"');
      expect((result as { error: { message: string } }).error.message).toContain('/value');
    });
  },
);
