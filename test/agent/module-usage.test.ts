import type { Provider, ProviderRequest, ProviderResponse, ToolSchema, Usage } from 'ideact';
import { Agent, Executor, Toolkit } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** Wraps a provider and keeps the usage of every response, in order. */
class UsageRecorder implements Provider {
  readonly usages: Usage[] = [];
  constructor(private readonly inner: Provider) {}
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const response = await this.inner.generate(request);
    this.usages.push(response.usage);
    return response;
  }
}

const summarize: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'summarize' },
    _module: { const: 'anonymous' },
    _output: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
    text: { type: 'string' },
  },
  required: ['_tool', 'text'],
};

describe('usage of module sub-requests (R-LOOP-1)', () => {
  it('counts a module Call’s sub-request in the run usage and on its result node', async () => {
    const provider = new UsageRecorder(
      new ScriptedProvider([
        { calls: [{ _tool: 'summarize', text: 'a long text '.repeat(40) }], output: null },
        { summary: 'short' },
        { calls: [], output: 'done' },
      ]),
    );
    const tools = [summarize];
    const agent = new Agent({
      provider,
      toolkit: new Toolkit({ tools }),
      executor: new Executor({ provider, tools }),
    });
    const result = await agent.run({ task: 'Summarize' });
    expect(result.output).toBe('done');
    const [first, module, last] = provider.usages;
    expect(module!.inputTokens).toBeGreaterThan(0);
    expect(result.usage.inputTokens).toBe(
      first!.inputTokens + module!.inputTokens + last!.inputTokens,
    );
    expect(result.usage.outputTokens).toBe(
      first!.outputTokens + module!.outputTokens + last!.outputTokens,
    );
    const resultNode = result.state.nodes.find((node) => node.message.type === 'result');
    expect(resultNode?.metadata.usage).toEqual(module);
  });
});
