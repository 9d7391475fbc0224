import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgent, FileRunStore } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { ActorSession } from '../../src/engine/actor-session';
import { runAgentStep } from '../../src/engine/agent-step';
import { RunSession } from '../../src/engine/run-session';
import { weatherTool } from '../agent/run-fixtures';

/**
 * Issue 31 item 2 ("no per-step re-reads of what the worker already holds"): after an Actor step
 * that committed everything but its hand-over commit (the one that only says the Prompter is next),
 * a worker's Actor hands the run on to the next agent-step as it is, with that commit for the next
 * step to write with its own: what it hands on is what the store loads once that commit is written,
 * and without it (lost with the process) the store holds the run at its Actor step with every result,
 * from which the next agent-step reaches the same state without running a Call again.
 */

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-actor-session-'));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

/** A run stored at its Actor step (two weather Calls), the agent, and the store. */
async function runAtActorStep(weather: () => unknown, activityErrors: 'feed' | 'throw' = 'feed') {
  const store = new FileRunStore({ dir: directory });
  const agent = createAgent({
    tools: [weatherTool],
    provider: new ScriptedProvider([
      {
        calls: [
          { _tool: 'weather', city: 'Rome' },
          { _tool: 'weather', city: 'Oslo' },
        ],
        output: null,
      },
      { calls: [], output: 'done' },
    ]),
    store,
    activities: [{ weather }],
    activityErrors,
  });
  const run = agent.start({ task: 'Weather in Rome and Oslo?' });
  for (let step = 0; step < 3; step++) await run.step();
  expect(run.state.nextStep).toEqual({ module: 'actor', args: { nodeId: 1 } });
  return { store, agent, runId: run.id };
}

/** One Actor step driven as a worker's DBOS steps would drive it (one step per Call). */
async function actorStep(
  setup: Awaited<ReturnType<typeof runAtActorStep>>,
  stopSignal = new AbortController().signal,
) {
  const session = new RunSession(setup.store, setup.runId);
  const actor = new ActorSession(
    {
      store: setup.store,
      runId: setup.runId,
      session,
      agentFor: () => Promise.resolve(setup.agent),
      stopSignal,
      awaitChild: () => Promise.reject(new Error('no child workflows here')),
    },
    ['1:0', '1:1'],
  );
  const steps = await Promise.allSettled([
    actor.step('1:0', undefined),
    actor.step('1:1', undefined),
  ]);
  await actor.ended();
  return { session, steps };
}

/**
 * Takes the run the Actor handed on (the store is not read for it) and its unwritten hand-over
 * commit; checks that the store holds every result without it and, once the next step wrote it,
 * loads what was handed on.
 */
async function handedOnAndLoaded(
  setup: Awaited<ReturnType<typeof runAtActorStep>>,
  session: RunSession,
) {
  const load = jest.spyOn(setup.store, 'load');
  const held = await session.take();
  const unwritten = session.takeUnwritten();
  expect(load).not.toHaveBeenCalled();
  load.mockRestore();
  expect(unwritten).toEqual([
    expect.objectContaining({
      type: 'commit',
      nodes: [],
      nextStep: { module: 'prompter', args: {} },
    }),
  ]);
  const unfinished = await setup.store.load(setup.runId);
  expect(unfinished?.state.nextStep).toEqual({ module: 'actor', args: { nodeId: 1 } });
  expect(JSON.parse(JSON.stringify(unfinished?.state.nodes))).toEqual(
    JSON.parse(JSON.stringify(held?.state.nodes)),
  );
  await setup.store.append(setup.runId, unwritten);
  const loaded = await setup.store.load(setup.runId);
  expect(JSON.parse(JSON.stringify(held))).toEqual(JSON.parse(JSON.stringify(loaded)));
  return held;
}

describe('a worker’s Actor step hands the run on (issue 31)', () => {
  it('the next step takes the run without reading the store, equal to what the store loads', async () => {
    const setup = await runAtActorStep(() => ({ sky: 'sun' }));
    const { session, steps } = await actorStep(setup);
    expect(steps.map((step) => step.status)).toEqual(['fulfilled', 'fulfilled']);

    const held = await handedOnAndLoaded(setup, session);
    expect(held?.state.nextStep).toEqual({ module: 'prompter', args: {} });
    expect(held?.status).toBe('running');
    expect(held?.attempts).toEqual({ '1:0': 1, '1:1': 1 });
    expect(held?.openCalls).toEqual([]);
    // Taken once: a second take reads the store.
    const again = jest.spyOn(setup.store, 'load');
    await session.take();
    expect(again).toHaveBeenCalledTimes(1);
    await setup.store.close();
  });

  it('Calls that failed are results: the run is handed on with them, as the store loads it', async () => {
    const setup = await runAtActorStep(() => {
      throw new Error('the weather service is down');
    });
    const { session, steps } = await actorStep(setup);
    expect(steps.map((step) => step.status)).toEqual(['fulfilled', 'fulfilled']);
    const held = await handedOnAndLoaded(setup, session);
    expect(held?.state.nodes.filter((node) => node.message.type === 'result')).toHaveLength(2);
    await setup.store.close();
  });

  it('the hand-over commit lost with the process: the next agent-step, from the store, reaches the same state and runs no Call again', async () => {
    let executions = 0;
    const setup = await runAtActorStep(() => {
      executions += 1;
      return { sky: 'sun' };
    });
    const { session } = await actorStep(setup);
    expect(executions).toBe(2);
    const handedOn = await session.take();
    session.takeUnwritten(); // dropped, as a SIGKILL would drop it

    const outcome = await runAgentStep({
      store: setup.store,
      runId: setup.runId,
      agentFor: () => Promise.resolve(setup.agent),
    });
    expect(outcome).toMatchObject({ kind: 'stepped', ran: ['actor'], next: 'prompter' });
    expect(executions).toBe(2);
    const loaded = await setup.store.load(setup.runId);
    expect(JSON.parse(JSON.stringify(loaded?.state.nodes))).toEqual(
      JSON.parse(JSON.stringify(handedOn?.state.nodes)),
    );
    expect(loaded?.state.nextStep).toEqual({ module: 'prompter', args: {} });
    await setup.store.close();
  });

  it('the next agent-step writes the hand-over commit in the append that carries its own commits', async () => {
    const setup = await runAtActorStep(() => ({ sky: 'sun' }));
    const { session } = await actorStep(setup);
    const appends: string[][] = [];
    const append = setup.store.append.bind(setup.store);
    jest.spyOn(setup.store, 'append').mockImplementation(async (runId, entries) => {
      appends.push(
        entries.map((entry) =>
          entry.type === 'commit' ? `commit ${entry.nextStep.module}` : entry.type,
        ),
      );
      return append(runId, entries);
    });

    const outcome = await runAgentStep({
      store: setup.store,
      runId: setup.runId,
      session,
      agentFor: () => Promise.resolve(setup.agent),
    });
    expect(outcome).toMatchObject({ kind: 'done' });
    // One append: the Actor's hand-over, then the model turn's commits, up to the run's end.
    expect(appends).toHaveLength(1);
    expect(appends[0]?.[0]).toBe('commit prompter');
    expect(appends[0]?.[appends[0].length - 1]).toBe('commit done');
    const loaded = await setup.store.load(setup.runId);
    expect(loaded?.status).toBe('completed');
    expect(loaded?.state.nextStep).toMatchObject({ module: 'done', args: { output: 'done' } });
    await setup.store.close();
  });

  it('after an Actor step that threw, nothing is handed on: the next step reads the store', async () => {
    const setup = await runAtActorStep(() => {
      throw new Error('a bug in the Activity');
    }, 'throw');
    const { session } = await actorStep(setup);
    const load = jest.spyOn(setup.store, 'load');
    const taken = await session.take();
    expect(load).toHaveBeenCalledTimes(1);
    expect(taken?.status).toBe('failed');
    await setup.store.close();
  });
});
