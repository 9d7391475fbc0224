import {
  createAgent,
  Executor,
  isToolset,
  Toolkit,
  type ActivityFunction,
  type Call,
  type JSONSchema,
  type ProviderRequest,
  type Toolset,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Toolsets (issue 19): a live group of Tools with their Activities, accepted in `tools` next to
 * ToolSchemas and `@Tool` classes by `new Executor`, `Toolkit` and `createContainer`/`createAgent`.
 * Changes (a new `tools` array) are seen at the next Call and the next request; `settled()` is awaited.
 */
function tool(name: string, params: Record<string, JSONSchema> = {}): ToolSchema {
  return {
    type: 'object',
    description: `The ${name} tool.`,
    properties: { _tool: { const: name }, ...params },
    required: ['_tool', ...Object.keys(params)],
  };
}

/** A Toolset kept in memory: `add` replaces the arrays, as the interface asks. */
class MemoryToolset implements Toolset {
  tools: readonly ToolSchema[] = [];
  activities: Readonly<Record<string, ActivityFunction>> = {};
  pending: Promise<void> = Promise.resolve();

  add(name: string, activity: ActivityFunction, params: Record<string, JSONSchema> = {}): this {
    this.tools = [
      ...this.tools.filter((known) => known.properties._tool.const !== name),
      tool(name, params),
    ];
    this.activities = { ...this.activities, [name]: activity };
    return this;
  }

  remove(name: string): void {
    this.tools = this.tools.filter((known) => known.properties._tool.const !== name);
    const { [name]: _removed, ...rest } = this.activities;
    this.activities = rest;
  }

  settled(): Promise<void> {
    return this.pending;
  }
}

const names = (tools: readonly ToolSchema[]) => tools.map((known) => known.properties._tool.const);
const vessel = (calls: Call[], output: unknown = null) => ({ calls, output });

describe('Toolset', () => {
  it('isToolset tells a Toolset from a ToolSchema and a class', () => {
    expect(isToolset(new MemoryToolset())).toBe(true);
    expect(isToolset(tool('echo'))).toBe(false);
    expect(isToolset(class Echo {})).toBe(false);
    expect(isToolset({ tools: [] })).toBe(false);
  });

  it('an Executor runs its Tools through its Activities and sees changes at the next Call', async () => {
    const toolset = new MemoryToolset().add('double', (params) => Number(params.n) * 2, {
      n: { type: 'number' },
    });
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('fixed'), toolset],
    });
    expect(names(executor.tools)).toEqual(['fixed', 'double']);
    expect(executor.activityNames.has('double')).toBe(true);
    expect(await executor.call({ toolName: 'double' }, { n: 21 })).toBe(42);

    toolset.add('triple', (params) => Number(params.n) * 3, { n: { type: 'number' } });
    expect(await executor.call({ toolName: 'triple' }, { n: 2 })).toBe(6);
    expect(names(executor.tools)).toEqual(['fixed', 'double', 'triple']);

    toolset.remove('double');
    const [gone] = await executor.call({ _tool: 'double', n: 1 }, []);
    expect(gone).toMatchObject({ error: { code: 'UNKNOWN_TOOL' } });
    // Params are still checked against the Toolset's schema (R-CALL-3).
    const [invalid] = await executor.call({ _tool: 'triple', n: 'two' }, []);
    expect(invalid).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
  });

  it("a Toolset's Tool replaces a fixed Tool of the same name (R-TOOL-5)", async () => {
    const toolset = new MemoryToolset().add('echo', () => 'from the toolset');
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('echo'), toolset],
      activities: [{ echo: () => 'fixed' }],
    });
    expect(names(executor.tools)).toEqual(['echo']);
    expect(await executor.call({ toolName: 'echo' }, {})).toBe('from the toolset');
  });

  it("a child executor (a nested module's) runs a Toolset Activity its own Tools name", async () => {
    const toolset = new MemoryToolset().add('lookup', () => 'found');
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    const child = executor.withTools([tool('lookup')]);
    expect(await child.call({ toolName: 'lookup' }, {})).toBe('found');
    const unrelated = executor.withTools([tool('other')]);
    expect(names(unrelated.tools)).toEqual(['other']);
  });

  it('a Toolkit lists the Toolset after its fixed Tools and waits for settled() before listing', async () => {
    const toolset = new MemoryToolset().add('a', () => 1);
    const toolkit = new Toolkit({ tools: [tool('fixed'), toolset] });
    expect(names(await toolkit.list())).toEqual(['fixed', 'a']);
    let release!: () => void;
    toolset.pending = new Promise<void>((resolve) => (release = resolve));
    const listing = toolkit.list();
    setTimeout(() => {
      toolset.add('b', () => 2);
      release();
    }, 20);
    expect(names(await listing)).toEqual(['fixed', 'a', 'b']);
    expect(toolkit.names()).toEqual(['fixed', 'a', 'b']);
  });

  it('createAgent: a Tool the Toolset gains during a run is offered at the next request', async () => {
    const toolset = new MemoryToolset();
    toolset.add('unlock', () => {
      toolset.add('secret', () => 'the secret is 42');
      return 'unlocked';
    });
    const offered = (request: ProviderRequest): string[] => {
      const items = (request.schema.properties!.calls as JSONSchema).items as JSONSchema;
      return ((items.anyOf ?? [items]) as JSONSchema[]).map((variant) =>
        String((variant.properties!._tool as JSONSchema).const),
      );
    };
    const provider = new ScriptedProvider([
      vessel([{ _tool: 'unlock' }]),
      vessel([{ _tool: 'secret' }]),
      (request: ProviderRequest) =>
        vessel([], /the secret is \d+/.exec(JSON.stringify(request.messages))?.[0] ?? 'unseen'),
    ]);
    const agent = createAgent({ tools: [toolset], provider });
    const result = await agent.run({ task: 'Unlock, then read the secret.' });
    expect(result.output).toBe('the secret is 42');
    expect(offered(provider.requests[0]!)).toEqual(['unlock']);
    expect(offered(provider.requests[1]!)).toEqual(['unlock', 'secret']);
  });
});
