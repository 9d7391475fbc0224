import { TRIMMED_OUTPUT_NOTE } from '../../../src/runtime/loop/basic-prompter';
import { scriptedAgent, vessel } from './helpers';

describe('BasicPrompter (R-LOOP-2, R-DATA-1, R-DATA-2)', () => {
  it('R-DATA-1 data messages along the path are merged and rendered once; results are included', async () => {
    const { agent } = scriptedAgent([]);
    await agent.start({
      context: [
        { type: 'system', text: 'You are helpful.' },
        { type: 'state', state: { city: 'Oslo', units: 'C' } },
      ],
      task: 'Go',
    });
    await agent.step();
    const step = agent.state!.nextStep;
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
});
