import type { AgentRuntime } from 'ideact';
import { FirstOptionDiscriminator } from '../../src/agent/first-option-discriminator';
import { scriptedAgent, vessel } from '../agent/helpers';

// The loop's path caches check only what was appended while no code that may edit the state ran
// (issue 28); these are the places where code of the user's may edit it, and each must be seen by
// the next prompt (R-LOOP-3: between steps the state is the user's to edit).
// Three turns: the edit (of the first node) comes after the caches have extended past it.
const threeTurns = () => [
  vessel([{ _tool: 'weather', city: 'Rome' }]),
  vessel([{ _tool: 'weather', city: 'Rome' }]),
  vessel([], 'sunny'),
];
const firstPrompt = (provider: ReturnType<typeof scriptedAgent>['provider'], index: number) =>
  provider.requests[index]?.messages[0]?.content;

describe('in-place edits of a running state reach the next prompt (R-LOOP-3)', () => {
  it('an edit between step() calls', async () => {
    const { agent, provider } = scriptedAgent(threeTurns());
    const run = agent.start({ task: 'Weather in Rome?' });
    for (let step = 0; step < 8; step++) await run.step();
    expect(firstPrompt(provider, 1)).toBe('Weather in Rome?');
    run.state.nodes[0]!.message = { type: 'text', text: 'Weather in Paris?' };
    await run.step();
    await run.step();
    expect(firstPrompt(provider, 2)).toBe('Weather in Paris?');
  });

  it('an edit made by onStep during run()', async () => {
    let edited = false;
    const { agent, provider } = scriptedAgent(threeTurns(), {
      config: {
        onStep: ({ module, state }) => {
          if (module !== 'actor' || state.usage.turns < 2 || edited) return;
          edited = true;
          state.nodes[0]!.message = { type: 'text', text: 'Weather in Oslo?' };
        },
      },
    });
    await agent.run({ task: 'Weather in Rome?' });
    expect(firstPrompt(provider, 1)).toBe('Weather in Rome?');
    expect(firstPrompt(provider, 2)).toBe('Weather in Oslo?');
  });

  it('an edit made by a custom step module (a subclass of a built-in one)', async () => {
    class EditingDiscriminator extends FirstOptionDiscriminator {
      override async run(agent: AgentRuntime): Promise<void> {
        await super.run(agent);
        if (agent.state.usage.turns < 2) return;
        const first = agent.state.nodes[0]!;
        if (first.message.type === 'text' && first.message.text === 'Weather in Rome?') {
          first.message = { type: 'text', text: 'Weather in Lima?' };
        }
      }
    }
    const { agent, provider } = scriptedAgent(threeTurns(), {
      config: { modules: { discriminator: new EditingDiscriminator() } },
    });
    await agent.run({ task: 'Weather in Rome?' });
    expect(firstPrompt(provider, 1)).toBe('Weather in Rome?');
    expect(firstPrompt(provider, 2)).toBe('Weather in Lima?');
  });
});
