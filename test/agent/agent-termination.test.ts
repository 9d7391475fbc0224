import { maxTurns } from '../../src/agent/stop-conditions';
import { promptText, scriptedAgent, vessel } from './helpers';

const answer = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
};

describe('Agent termination (R-LOOP-3)', () => {
  it('R-LOOP-3 ends with a non-null output that validates against the output schema', async () => {
    const { agent, provider } = scriptedAgent([
      vessel([{ _tool: 'weather', city: 'Oslo' }]),
      vessel([], { summary: 'Oslo is 21 °C' }),
    ]);
    const result = await agent.run({ task: 'Weather in Oslo?', output: answer });
    expect(result.stopReason).toBe('output');
    expect(result.output).toEqual({ summary: 'Oslo is 21 °C' });
    expect(result.state.nextStep).toEqual({
      module: 'done',
      args: { reason: 'output', output: { summary: 'Oslo is 21 °C' } },
    });
    expect(result.usage.turns).toBe(2);
    expect(result.usage.steps).toBe(8);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    // The second request saw the first turn's choice and the Call's result (R-REQ-1 rebuilt context).
    expect(promptText(provider, 1)).toContain('## Result of weather');
    expect(promptText(provider, 1)).toContain('"tempC": 21');
    provider.assertComplete();
  });

  it('R-LOOP-3 an invalid output goes back to the LLM as a result error; a valid one then ends the run', async () => {
    const { agent, provider } = scriptedAgent([vessel([], { summary: 'ok' })]);
    const run = agent.start({ task: 'Say ok', output: answer });
    // A custom Generator could return anything: hand the Discriminator an option whose output is invalid.
    run.state.nextStep = {
      module: 'discriminator',
      args: {
        options: [{ calls: [], output: { summary: 42 } }],
        messages: [],
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
      },
    };
    const result = await run.result();
    expect(result.stopReason).toBe('output');
    expect(result.output).toEqual({ summary: 'ok' });
    expect(promptText(provider, 0)).toContain('INVALID_OUTPUT');
    expect(promptText(provider, 0)).toContain('/summary: must be string');
  });

  it('R-LOOP-3 ends when the Vessel has no calls (output null)', async () => {
    const { agent } = scriptedAgent([vessel([])]);
    const result = await agent.run({ task: 'Nothing to do' });
    expect(result.stopReason).toBe('no_calls');
    expect(result.output).toBeNull();
  });

  it('R-LOOP-3 maxTurns stops at a turn boundary with a resumable reason; resume with a raised limit finishes', async () => {
    const { agent, provider } = scriptedAgent([
      vessel([{ _tool: 'weather', city: 'A' }]),
      vessel([{ _tool: 'weather', city: 'B' }]),
      vessel([], 'done'),
    ]);
    const stopped = await agent.run({ task: 'Loop', maxTurns: 1 });
    expect(stopped.stopReason).toBe('max_turns');
    expect(stopped.output).toBeNull();
    expect(stopped.state.nextStep).toEqual({
      module: 'done',
      args: { reason: 'max_turns', pending: { module: 'prompter', args: {} } },
    });
    expect(provider.requests).toHaveLength(1);
    const resumed = await agent.run({ state: stopped.state, maxTurns: 5 });
    expect(resumed.stopReason).toBe('output');
    expect(resumed.output).toBe('done');
    expect(resumed.usage.turns).toBe(3);
  });

  it('R-LOOP-3 maxTokens stops once input + output tokens reach the limit', async () => {
    const { agent, provider } = scriptedAgent([
      vessel([{ _tool: 'weather', city: 'A' }]),
      vessel([], 'never'),
    ]);
    const result = await agent.run({ task: 'Loop', maxTokens: 1 });
    expect(result.stopReason).toBe('max_tokens');
    expect(provider.requests).toHaveLength(1);
  });

  it('R-LOOP-3 maxTimeMs stops once the time spent in steps reaches the limit', async () => {
    const { agent, provider } = scriptedAgent(
      [vessel([{ _tool: 'weather', city: 'A' }]), vessel([], 'never')],
      {
        activities: {
          weather: async () => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            return { tempC: 1 };
          },
        },
      },
    );
    // The limit falls inside the slow Actor step (the steps before it take far less, even on a busy CI).
    const result = await agent.run({ task: 'Loop', maxTimeMs: 150 });
    expect(result.stopReason).toBe('max_time');
    expect(provider.requests).toHaveLength(1);
    expect(result.state.nextStep).toMatchObject({
      module: 'done',
      args: { pending: { module: 'prompter' } },
    });
  });

  it('R-LOOP-3 an abort mid-run stops with the resumable reason "aborted"', async () => {
    const controller = new AbortController();
    const { agent } = scriptedAgent(
      [vessel([{ _tool: 'weather', city: 'A' }]), vessel([], 'never')],
      {
        activities: {
          weather: () => {
            controller.abort();
            return { tempC: 1 };
          },
        },
      },
    );
    const result = await agent.run({ task: 'Loop', signal: controller.signal });
    expect(result.stopReason).toBe('aborted');
    // The aborted Call is not recorded as completed: resuming runs it again.
    expect(result.state.nextStep).toMatchObject({
      module: 'done',
      args: { pending: { module: 'actor' } },
    });
    expect(result.state.nodes.some((node) => node.message.type === 'result')).toBe(false);
  });

  it('R-LOOP-3 custom stop conditions compose with the limits (stopWhen)', async () => {
    const { agent } = scriptedAgent(
      [vessel([{ _tool: 'weather', city: 'A' }]), vessel([], 'never')],
      {
        config: { stopWhen: [maxTurns(1)] },
      },
    );
    const result = await agent.run({ task: 'Loop' });
    expect(result.stopReason).toBe('max_turns');
  });
});
