import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { saveState } from '../../src/runs/state-store';
import { loadState } from '../../src/store/state-file-store';
import { appendNode } from '../../src/runs/state-tree';
import { scriptedAgent, vessel } from './helpers';

describe('Agent.step and fixed states (R-LOOP-2, R-LOOP-3, R-LOOP-5)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-step-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('R-LOOP-3 step() runs exactly one module; modules hand over only through nextStep (R-LOOP-2)', async () => {
    const { agent, provider } = scriptedAgent([
      vessel([{ _tool: 'weather', city: 'Rome' }]),
      vessel([], 'sunny'),
    ]);
    const run = agent.start({ task: 'Weather in Rome?' });
    expect(run.state.nextStep.module).toBe('prompter');

    expect((await run.step()).module).toBe('generator');
    expect(provider.requests).toHaveLength(0);
    const generatorStep = run.state.nextStep;
    expect(generatorStep.module === 'generator' && generatorStep.args.messages).toEqual([
      { role: 'user', content: 'Weather in Rome?' },
    ]);

    expect((await run.step()).module).toBe('discriminator');
    expect(provider.requests).toHaveLength(1);
    expect(run.state.nodes).toHaveLength(1);

    const actorStep = await run.step();
    expect(actorStep).toEqual({ module: 'actor', args: { nodeId: 1 } });
    expect(run.state.nodes[1]?.message).toEqual({
      type: 'vessel',
      calls: [{ _tool: 'weather', city: 'Rome' }],
      output: null,
    });

    expect((await run.step()).module).toBe('prompter');
    expect(run.state.nodes[2]?.message).toMatchObject({
      type: 'result',
      output: { city: 'Rome', tempC: 21 },
    });
    expect(run.state.nodes[2]?.metadata).toMatchObject({
      module: 'actor',
      source: { nodeId: 1, callIndex: 0 },
    });
    expect(run.state.usage.steps).toBe(4);
    expect(run.state.usage.turns).toBe(1);
  });

  it('R-LOOP-3 a saved state with a hand-set nextStep runs from there (debugging by fixed states)', async () => {
    const file = path.join(directory, 'state.json');
    const first = scriptedAgent([vessel([], 'first')]);
    await first.agent.run({ task: 'Greet', stateFile: file });

    // Edit the file by hand: give the Generator fixed messages.
    const saved = await loadState(file);
    saved.nextStep = {
      module: 'generator',
      args: { messages: [{ role: 'user', content: 'Only say hi.' }] },
    };
    await saveState(file, saved);

    const second = scriptedAgent([vessel([], 'hi')]);
    const secondRun = second.agent.load(await loadState(file), { stateFile: file });
    expect((await secondRun.step()).module).toBe('discriminator');
    expect(second.provider.requests[0]?.messages).toEqual([
      { role: 'user', content: 'Only say hi.' },
    ]);
    const result = await secondRun.result();
    expect(result.output).toBe('hi');
    expect((await loadState(file)).nextStep).toMatchObject({
      module: 'done',
      args: { output: 'hi' },
    });

    // A hand-made Vessel node and nextStep = actor: the Actor runs exactly that Call.
    const third = scriptedAgent([vessel([], 'Paris is mild')]);
    const state = await loadState(file);
    const node = appendNode(
      state,
      { type: 'vessel', calls: [{ _tool: 'weather', city: 'Paris' }], output: null },
      { module: 'user' },
    );
    state.nextStep = { module: 'actor', args: { nodeId: node.id } };
    const thirdRun = third.agent.load(state);
    expect((await thirdRun.step()).module).toBe('prompter');
    expect(state.nodes.at(-1)?.message).toMatchObject({
      type: 'result',
      output: { city: 'Paris' },
    });
    expect((await thirdRun.result()).output).toBe('Paris is mild');
  });

  it('R-LOOP-5 a failing step leaves the last good state on disk, marked error with the pending step; resume retries it', async () => {
    const file = path.join(directory, 'state.json');
    const { agent } = scriptedAgent([vessel([{ _tool: 'weather', city: 'Oslo' }])]);
    const failure = await agent
      .run({ task: 'Weather?', stateFile: file })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'SCRIPT_EXHAUSTED' });
    const saved = await loadState(file);
    expect(saved.nextStep).toMatchObject({
      module: 'done',
      args: {
        reason: 'error',
        // The store keeps no rendered prompt: the pending Generator step is stored as its Prompter.
        pending: { module: 'prompter' },
        error: { code: 'SCRIPT_EXHAUSTED' },
      },
    });
    // Nothing of the failed step leaked into the state; the completed turn is there.
    expect(saved.nodes.map((node) => node.message.type)).toEqual(['text', 'vessel', 'result']);

    const next = scriptedAgent([vessel([], 'cold')]);
    const resumed = await next.agent.resume(file);
    expect(resumed.output).toBe('cold');
    expect(resumed.state.nodes.map((node) => node.id)).toEqual([0, 1, 2, 3]);
  });

  it('R-LOOP-5 resume with a new task continues a finished run as a new user message', async () => {
    const file = path.join(directory, 'state.json');
    await scriptedAgent([vessel([], 'first answer')]).agent.run({
      task: 'First question',
      stateFile: file,
    });
    const next = scriptedAgent([vessel([], 'second answer')]);
    const result = await next.agent.resume(file, { task: 'Follow-up question' });
    expect(result.output).toBe('second answer');
    const prompt = next.provider.requests[0]!.messages;
    expect(prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(prompt.at(-1)?.content).toBe('Follow-up question');
    expect(result.state.nodes.map((node) => node.id)).toEqual([0, 1, 2, 3]);
  });
});
