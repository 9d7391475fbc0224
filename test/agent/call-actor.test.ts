import type { Call } from '../../src/protocol/call';
import type { Message } from '../../src/protocol/message';
import type { ConfirmDecision } from '../../src/agent/confirm';
import { promptText, scriptedAgent, vessel } from './helpers';

describe('CallActor: human in the loop and failures (R-LOOP-4, R-CALL-5)', () => {
  it('R-LOOP-4 confirm sees the Calls and their context; approve, edit and reject each apply to one Call', async () => {
    const ran: string[] = [];
    const seen: { calls: Call[]; context: Message[] }[] = [];
    const { agent, provider } = scriptedAgent(
      [
        vessel([
          { _tool: 'weather', city: 'Oslo' },
          { _tool: 'weather', city: 'Bergen' },
          { _tool: 'weather', city: 'Moscow' },
        ]),
        vessel([], 'report'),
      ],
      {
        activities: {
          weather: (params) => {
            ran.push(String(params.city));
            return { city: params.city, tempC: 3 };
          },
        },
        config: {
          confirm: (calls, context): ConfirmDecision[] => {
            seen.push({ calls, context });
            return [
              { approve: true },
              { edit: { _tool: 'weather', city: 'Trondheim' } },
              { reject: 'not in scope' },
            ];
          },
        },
      },
    );
    const result = await agent.run({ task: 'Weather in Norway' });
    expect(result.output).toBe('report');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.calls.map((call) => call.city)).toEqual(['Oslo', 'Bergen', 'Moscow']);
    expect(seen[0]?.context).toEqual([{ type: 'text', role: 'user', text: 'Weather in Norway' }]);
    expect(ran.sort()).toEqual(['Oslo', 'Trondheim']);

    const results = result.state.nodes.filter((node) => node.message.type === 'result');
    const byIndex = new Map(results.map((node) => [node.metadata.source?.callIndex, node]));
    expect(byIndex.get(1)?.metadata.originalCall).toEqual({ _tool: 'weather', city: 'Bergen' });
    expect(byIndex.get(1)?.message).toMatchObject({
      call: { city: 'Trondheim' },
      output: { city: 'Trondheim' },
    });
    expect(byIndex.get(2)?.message).toMatchObject({
      call: { city: 'Moscow' },
      error: { code: 'CALL_REJECTED' },
    });
    // The LLM sees the rejection reason on the next turn (R-LOOP-4).
    expect(promptText(provider, 1)).toContain('CALL_REJECTED');
    expect(promptText(provider, 1)).toContain('not in scope');
  });

  it('R-LOOP-4 a confirm hook returning the wrong number of decisions is a typed configuration error', async () => {
    const { agent } = scriptedAgent([vessel([{ _tool: 'weather', city: 'Oslo' }])], {
      config: { confirm: () => [] },
    });
    const run = agent.start({ task: 'x' });
    await expect(run.result()).rejects.toMatchObject({ code: 'INVALID_CONFIRMATION' });
    expect(run.state.nextStep).toMatchObject({
      module: 'done',
      args: { reason: 'error', pending: { module: 'actor' } },
    });
  });

  it('R-CALL-5 an activity that throws becomes a result the LLM sees; the retry on the next tick succeeds', async () => {
    let attempts = 0;
    const { agent, provider } = scriptedAgent(
      [
        vessel([{ _tool: 'weather', city: 'Oslo' }]),
        vessel([{ _tool: 'weather', city: 'Oslo' }]),
        vessel([], 'done'),
      ],
      {
        activities: {
          weather: () => {
            attempts += 1;
            if (attempts === 1) throw new Error('weather service is down');
            return { tempC: 4 };
          },
        },
      },
    );
    const result = await agent.run({ task: 'Weather in Oslo' });
    expect(result.output).toBe('done');
    expect(attempts).toBe(2);
    const second = promptText(provider, 1);
    expect(second).toContain('## Result of weather');
    expect(second).toContain('weather service is down');
    expect(promptText(provider, 2)).toContain('"tempC": 4');
  });

  it('R-CALL-4 the Calls of one Vessel run in parallel, up to actorConcurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const { agent } = scriptedAgent(
      [
        vessel(['a', 'b', 'c', 'd', 'e'].map((city) => ({ _tool: 'weather', city }))),
        vessel([], 'ok'),
      ],
      {
        activities: {
          weather: async () => {
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await new Promise((resolve) => setImmediate(resolve));
            inFlight -= 1;
            return 1;
          },
        },
        config: { actorConcurrency: 2 },
      },
    );
    const result = await agent.run({ task: 'x' });
    expect(peak).toBe(2);
    expect(result.state.nodes.filter((node) => node.message.type === 'result')).toHaveLength(5);
  });
});
