import { createAgent, InvalidAgentStateError, Run, type Agent, type ProviderRequest } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { weatherTool } from './run-fixtures';

/** Issue 16 item 1: an Agent is a definition; each run has its own id, state, signal and result. */

/** Asks for the weather of the city named in the task, then answers with what the result said. */
function weatherScript(request: ProviderRequest): unknown {
  const prompt = request.messages.map((message) => message.content).join('\n');
  const city = /Weather in (\w+)\?/.exec(prompt)?.[1] ?? 'nowhere';
  const sky = /"sky":\s*"(\w+)"/.exec(prompt)?.[1];
  return sky === undefined
    ? { calls: [{ _tool: 'weather', city }], output: null }
    : { calls: [], output: `${city}: ${sky}` };
}

const skies: Record<string, string> = { Oslo: 'snow', Lima: 'fog' };

/**
 * A weather Activity that waits until `expected` Calls are running at once (so the test proves the
 * runs overlap: run one after the other, the first Call would wait in vain and fail).
 */
function barrierActivity(expected: number): {
  weather: (params: Record<string, unknown>) => Promise<unknown>;
  maxRunning: () => number;
} {
  let running = 0;
  let max = 0;
  const waiting: Array<() => void> = [];
  return {
    maxRunning: () => max,
    weather: async (params) => {
      running += 1;
      max = Math.max(max, running);
      if (running >= expected) for (const release of waiting.splice(0)) release();
      else {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('the other run never came')), 2_000);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      running -= 1;
      const city = String(params.city);
      return { city, sky: skies[city] ?? 'sun' };
    },
  };
}

function weatherAgent(activity: (params: Record<string, unknown>) => unknown): Agent {
  return createAgent({
    tools: [weatherTool],
    activities: [{ weather: activity }],
    provider: new ScriptedProvider(weatherScript),
  });
}

describe('runs, not agents (issue 16 item 1)', () => {
  it('two concurrent runs on one Agent with different inputs return their own outputs and states', async () => {
    const barrier = barrierActivity(2);
    const agent = weatherAgent(barrier.weather);
    const [oslo, lima] = await Promise.all([
      agent.run({ task: 'Weather in Oslo?' }),
      agent.run({ task: 'Weather in Lima?' }),
    ]);
    expect(barrier.maxRunning()).toBe(2);
    expect(oslo.output).toBe('Oslo: snow');
    expect(lima.output).toBe('Lima: fog');
    expect(oslo.stopReason).toBe('output');
    expect(lima.stopReason).toBe('output');

    expect(oslo.state).not.toBe(lima.state);
    expect(oslo.state.runId).toMatch(/^run_[0-9a-f]{12}$/);
    expect(lima.state.runId).toMatch(/^run_[0-9a-f]{12}$/);
    expect(oslo.state.runId).not.toBe(lima.state.runId);
    // Each state holds only its own run's messages and usage.
    const text = (state: typeof oslo.state): string => JSON.stringify(state.nodes);
    expect(text(oslo.state)).toContain('Oslo');
    expect(text(oslo.state)).not.toContain('Lima');
    expect(text(lima.state)).toContain('Lima');
    expect(text(lima.state)).not.toContain('Oslo');
    expect(oslo.state.usage.turns).toBe(2);
    expect(lima.state.usage.turns).toBe(2);
    expect(oslo.usage).not.toBe(lima.usage);
  });

  it('concurrent streams of one Agent carry their own run ids; aborting one leaves the other running', async () => {
    const barrier = barrierActivity(1);
    const agent = weatherAgent(barrier.weather);
    const first = agent.stream({ task: 'Weather in Oslo?' });
    const second = agent.stream({ task: 'Weather in Lima?' });
    expect(first.runId).not.toBe(second.runId);
    first.abort(new Error('not this one'));
    const [stopped, finished] = await Promise.all([first.result, second.result]);
    expect(stopped.stopReason).toBe('aborted');
    expect(finished.stopReason).toBe('output');
    expect(finished.output).toBe('Lima: fog');
    expect(stopped.state.runId).toBe(first.runId);
    expect(finished.state.runId).toBe(second.runId);
    expect(first.run.signal.aborted).toBe(true);
    expect(second.run.signal.aborted).toBe(false);
  });

  it('agent.start() returns a Run: id, state, step() one module at a time, then result() to the end', async () => {
    const agent = weatherAgent((params) => ({ city: params.city, sky: 'rain' }));
    const run = agent.start({ task: 'Weather in Bergen?' });
    expect(run).toBeInstanceOf(Run);
    expect(run.id).toMatch(/^run_[0-9a-f]{12}$/);
    expect(run.state.runId).toBe(run.id);
    expect(run.state.nextStep.module).toBe('prompter');

    expect((await run.step()).module).toBe('generator');
    expect((await run.step()).module).toBe('discriminator');
    expect(run.state.usage.steps).toBe(2);
    expect(run.state.usage.turns).toBe(1);

    const pending = run.result();
    expect(run.result()).toBe(pending);
    const result = await pending;
    expect(result.output).toBe('Bergen: rain');
    expect(result.state).toBe(run.state);
    expect(run.state.nextStep.module).toBe('done');
    expect(result.state.usage.steps).toBe(8);
  });

  it('step() while result() drives the run rejects with InvalidAgentStateError; the run is unharmed', async () => {
    const agent = weatherAgent((params) => ({ city: params.city, sky: 'sun' }));
    const run = agent.start({ task: 'Weather in Rome?' });
    const driving = run.result();
    const error: unknown = await run.step().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(InvalidAgentStateError.isInstance(error)).toBe(true);
    expect((error as InvalidAgentStateError).code).toBe('INVALID_AGENT_STATE');
    expect((error as Error).message).toContain('result()');
    expect((await driving).output).toBe('Rome: sun');
    expect(run.state.usage.steps).toBe(8);
  });

  it('result() while a step() runs rejects with InvalidAgentStateError; so does a second step()', async () => {
    const agent = weatherAgent((params) => ({ city: params.city, sky: 'sun' }));
    const run = agent.start({ task: 'Weather in Rome?' });
    const stepping = run.step();
    await expect(run.result()).rejects.toMatchObject({ code: 'INVALID_AGENT_STATE' });
    await expect(run.step()).rejects.toMatchObject({ code: 'INVALID_AGENT_STATE' });
    expect((await stepping).module).toBe('generator');
    // Once the step finished, result() takes over from where it stopped.
    expect((await run.result()).output).toBe('Rome: sun');
  });

  it('run.abort() mid-run ends it with stop reason aborted; the interrupted step stays pending (resumable)', async () => {
    let calls = 0;
    const provider = new ScriptedProvider(weatherScript);
    const agent = createAgent({
      tools: [weatherTool],
      activities: [
        {
          weather: (params: Record<string, unknown>) => {
            calls += 1;
            // `run` is assigned below, before any Activity can run.
            if (calls === 1) run.abort(new Error('user pressed stop'));
            return { city: params.city, sky: 'sun' };
          },
        },
      ],
      provider,
    });
    const run: Run = agent.start({ task: 'Weather in Rome?' });
    const events: string[] = [];
    run.subscribe((event) => events.push(event.type));
    const result = await run.result();
    expect(result.stopReason).toBe('aborted');
    expect(result.output).toBeNull();
    expect(run.signal.aborted).toBe(true);
    expect(result.state.nextStep).toMatchObject({
      module: 'done',
      args: { reason: 'aborted', pending: { module: 'actor' } },
    });
    // The aborted Call's result is not recorded: a resumed run executes it again.
    expect(result.state.nodes.some((node) => node.message.type === 'result')).toBe(false);
    expect(provider.requests).toHaveLength(1);
    expect(events[events.length - 1]).toBe('run-end');

    // Continued in memory (a new Run on the same state, so the same id), it finishes from there.
    const continued = agent.start({ state: result.state });
    expect(continued.id).toBe(run.id);
    expect(continued.signal.aborted).toBe(false);
    const finished = await continued.result();
    expect(finished.stopReason).toBe('output');
    expect(finished.output).toBe('Rome: sun');
    expect(calls).toBe(2);
    expect(provider.requests).toHaveLength(2);
  });
});
