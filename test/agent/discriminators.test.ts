import { ScriptedProvider } from '../../src/llm/scripted/scripted-provider';
import { JudgeDiscriminator } from '../../src/agent/judge-discriminator';
import { pathTo } from '../../src/runs/state-tree';
import { scriptedAgent, vessel } from './helpers';

describe('Discriminators (R-LOOP-2)', () => {
  it('R-LOOP-2 n = 3 options, JudgeDiscriminator picks the second; the others stay in the tree as siblings', async () => {
    const { agent, provider } = scriptedAgent(
      [
        ScriptedProvider.options([
          vessel([{ _tool: 'weather', city: 'Oslo' }]),
          vessel([{ _tool: 'weather', city: 'Bergen' }]),
          vessel([], 'give up'),
        ]),
        { choice: 2, reason: 'Bergen is what the user asked about' },
        vessel([], 'Bergen is 21 °C'),
      ],
      { config: { n: 3, modules: { discriminator: new JudgeDiscriminator() } } },
    );
    const result = await agent.run({ task: 'Weather in Bergen?' });
    expect(result.output).toBe('Bergen is 21 °C');
    expect(provider.requests[0]?.n).toBe(3);

    // The judge saw the conversation and the three numbered options.
    const judge = provider.requests[1]!;
    expect(judge.schemaName).toBe('judge');
    expect(judge.messages[0]).toEqual({ role: 'user', content: 'Weather in Bergen?' });
    const listing = judge.messages.at(-1)!.content;
    expect(listing).toContain('### Option 1');
    expect(listing).toContain('### Option 3');
    expect(listing).toContain('"city": "Bergen"');

    const options = result.state.nodes.filter((node) => node.parent === 0);
    expect(options.map((node) => node.metadata.chosen)).toEqual([false, true, false]);
    expect(result.state.nodes[0]?.children).toEqual(options.map((node) => node.id));
    const chosen = options[1]!;
    expect(chosen.metadata.reason).toBe('Bergen is what the user asked about');
    expect(chosen.metadata.usage?.inputTokens).toBeGreaterThan(0);
    // Only the chosen option's Call ran, and only it is on the path the next turn saw.
    expect(result.state.nodes.filter((node) => node.message.type === 'result')).toHaveLength(1);
    expect(pathTo(result.state).map((node) => node.id)).toContain(chosen.id);
    expect(pathTo(result.state).map((node) => node.id)).not.toContain(options[0]!.id);
    expect(
      provider.requests[2]?.messages.map((message) => message.content).join('\n'),
    ).not.toContain('give up');
  });

  it('R-LOOP-2 FirstOptionDiscriminator takes the first of n options without another request', async () => {
    const { agent, provider } = scriptedAgent(
      [ScriptedProvider.options([vessel([], 'one'), vessel([], 'two')])],
      { config: { n: 2 } },
    );
    const result = await agent.run({ task: 'Pick' });
    expect(result.output).toBe('one');
    expect(provider.requests).toHaveLength(1);
    expect(result.state.nodes.filter((node) => node.message.type === 'vessel')).toHaveLength(2);
  });
});
