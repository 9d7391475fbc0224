import { TRIMMED_OUTPUT_NOTE } from '../../src/agent/basic-prompter';
import { Agent, Executor, Toolkit, type MessageHandler } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { scriptedAgent, vessel, weatherTool } from './helpers';

describe('BasicPrompter (R-LOOP-2, R-DATA-1, R-DATA-2)', () => {
  it('R-DATA-1 data messages along the path are merged and rendered once; results are included', async () => {
    const { agent } = scriptedAgent([]);
    const run = agent.start({
      context: [
        { type: 'system', text: 'You are helpful.' },
        { type: 'state', state: { city: 'Oslo', units: 'C' } },
      ],
      task: 'Go',
    });
    await run.step();
    const step = run.state.nextStep;
    if (step.module !== 'generator') throw new Error('expected the generator next');
    expect(step.args.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
    expect(step.args.messages[1]?.content).toContain('## Data: ¶state');
    expect(step.args.messages[1]?.content).toContain('"city": "Oslo"');
    expect(step.args.messages.at(-1)).toEqual({ role: 'user', content: 'Go' });
  });

  it('R-LOOP-2 trims the outputs of the oldest results first to fit the prompt budget', async () => {
    const big = 'x'.repeat(4000);
    const { agent, provider } = scriptedAgent(
      [
        vessel([{ _tool: 'weather', city: 'first' }]),
        vessel([{ _tool: 'weather', city: 'second' }]),
        vessel([], 'done'),
      ],
      {
        activities: { weather: (params) => ({ city: params.city, report: big }) },
        config: { promptTokenBudget: 1500 },
      },
    );
    await agent.run({ task: 'Collect reports' });
    const third = provider.requests[2]!.messages.map((message) => message.content).join('\n');
    // Both results are still there (the LLM knows the Calls happened) but the older output is trimmed.
    expect(third).toContain('"city": "first"');
    expect(third).toContain(TRIMMED_OUTPUT_NOTE);
    expect(third.split(big)).toHaveLength(2);
    expect(third.indexOf(TRIMMED_OUTPUT_NOTE)).toBeLessThan(third.indexOf(big));
  });

  it('R-LOOP-2 keeps error results and still fits the budget when a custom handler renders results bigger', async () => {
    const big = 'y'.repeat(3000);
    let failed = false;
    const provider = new ScriptedProvider([
      vessel([{ _tool: 'weather', city: 'broken' }]),
      vessel([{ _tool: 'weather', city: 'a' }]),
      vessel([{ _tool: 'weather', city: 'b' }]),
      vessel([], 'done'),
    ]);
    const weather = (params: Record<string, unknown>): unknown => {
      if (!failed) {
        failed = true;
        throw new Error('station offline');
      }
      return { city: params.city, report: big };
    };
    // Renders every result behind a long banner that the default estimate does not know of.
    const banner = 'z'.repeat(1200);
    const bannered: MessageHandler = {
      name: 'bannered-results',
      matches: (message) => message.type === 'result',
      render: (message) => [{ role: 'user', content: `${banner}\n${JSON.stringify(message)}` }],
    };
    const tools = [weatherTool];
    const agent = new Agent(
      {
        provider,
        toolkit: new Toolkit({ tools }),
        executor: new Executor({ provider, tools, activities: [{ weather }] }),
        handlers: [bannered],
      },
      { promptTokenBudget: 1500 },
    );
    await agent.run({ task: 'Collect reports' });
    const last = provider.requests[3]!.messages.map((message) => message.content).join('\n');
    expect(last).toContain('station offline');
    expect(last.split(big)).toHaveLength(1);
    expect(Math.ceil(last.length / 4)).toBeLessThanOrEqual(1500 + 20);
  });
});
