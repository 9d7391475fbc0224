import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgent, FileRunStore, type JournalEntry, type RunStore } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { weatherTool } from './run-fixtures';

/**
 * Issue 31: a run going to its end that nobody watches step by step goes on while its commits are
 * written, and the commits written meanwhile go out together. What users rely on stays: every step
 * is in the store when the run ends, a Call starts only once its start is stored (R-LOOP-5), a run
 * watched step by step sees each step stored when its `step` event comes, and a failed write stops
 * the run with the store's error.
 */

const TURNS = 6;

/** One weather Call per turn for TURNS turns, then the answer. */
function turnsProvider(): ScriptedProvider {
  let turn = 0;
  return new ScriptedProvider(() => {
    turn += 1;
    return turn <= TURNS
      ? { calls: [{ _tool: 'weather', city: `City${turn}` }], output: null }
      : { calls: [], output: `asked ${TURNS}` };
  });
}

/** A FileRunStore whose appends take `delayMs`, recording each append's entries once it is done. */
function slowStore(inner: RunStore, delayMs: number, failFrom = Infinity) {
  const appended: JournalEntry[][] = [];
  let calls = 0;
  const store: RunStore = {
    create: (header, state) => inner.create(header, state),
    load: (runId) => inner.load(runId),
    list: (filter) => inner.list(filter),
    delete: (runId) => inner.delete(runId),
    close: () => inner.close?.() ?? Promise.resolve(),
    async append(runId, entries) {
      calls += 1;
      if (calls >= failFrom) throw new Error('the disk is full');
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await inner.append(runId, entries);
      appended.push([...entries]);
    },
  };
  return { store, appended, calls: () => calls };
}

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-pipelined-'));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

describe('commits of a run nobody watches step by step (issue 31)', () => {
  it('R-LOOP-5 every step is stored when the run ends, in fewer appends than entries, and each Call starts only after its start is stored', async () => {
    const inner = new FileRunStore({ dir: directory });
    const { store, appended } = slowStore(inner, 5);
    const startsStoredBefore: boolean[] = [];
    const agent = createAgent({
      tools: [weatherTool],
      provider: turnsProvider(),
      store,
      activities: [
        {
          weather: (_params, context) => {
            startsStoredBefore.push(
              appended.some((batch) =>
                batch.some(
                  (entry) => entry.type === 'call-start' && entry.callId === context.callId,
                ),
              ),
            );
            return { sky: 'sun' };
          },
        },
      ],
    });
    const result = await agent.run({ task: 'Ask about six cities.', maxTurns: TURNS + 2 });
    expect(result.output).toBe(`asked ${TURNS}`);
    expect(startsStoredBefore).toEqual(Array.from({ length: TURNS }, () => true));

    const entries = appended.flat();
    expect(entries.filter((entry) => entry.type === 'call-start')).toHaveLength(TURNS);
    // Written while others were in flight, entries went out together.
    expect(appended.length).toBeLessThan(entries.length);
    const stored = await inner.load(result.runId);
    expect(stored?.state.nodes).toEqual(JSON.parse(JSON.stringify(result.state.nodes)));
    expect(stored?.state.nextStep).toMatchObject({ module: 'done', args: { reason: 'output' } });
    await inner.close();
  });

  it('R-LOOP-5 with a store that answers at once, each turn is one append: a Call’s result goes out with the next turn’s commits and the next Call’s start', async () => {
    const inner = new FileRunStore({ dir: directory });
    const { store, appended } = slowStore(inner, 0);
    const agent = createAgent({
      tools: [weatherTool],
      provider: turnsProvider(),
      store,
      activities: [{ weather: () => ({ sky: 'sun' }) }],
    });
    const result = await agent.run({ task: 'Ask about six cities.', maxTurns: TURNS + 2 });
    expect(result.output).toBe(`asked ${TURNS}`);
    // The run's first commit, the first turn up to its Call's start, then each Call's result
    // with the next turn up to the next Call's start (the last: with the answer).
    expect(appended).toHaveLength(TURNS + 2);
    const starts = appended.slice(1, TURNS + 1);
    for (const batch of starts) expect(batch[batch.length - 1]?.type).toBe('call-start');
    for (const batch of appended.slice(2)) {
      expect(batch[0]).toMatchObject({ type: 'commit', nodes: [{ message: { type: 'result' } }] });
    }
    const stored = await inner.load(result.runId);
    expect(stored?.state.nodes).toEqual(JSON.parse(JSON.stringify(result.state.nodes)));
    await inner.close();
  });

  it('a run watched step by step finds each step stored when its `step` event comes', async () => {
    const inner = new FileRunStore({ dir: directory });
    const { store, appended, calls } = slowStore(inner, 5);
    const agent = createAgent({
      tools: [weatherTool],
      provider: turnsProvider(),
      store,
      activities: [{ weather: () => ({ sky: 'sun' }) }],
    });
    const run = agent.start({ task: 'Ask about six cities.', maxTurns: TURNS + 2 });
    const storedAtStep: boolean[] = [];
    run.subscribe(
      (event) => {
        if (event.type !== 'step') return;
        // Every append asked for so far is done: nothing of the step is still being written.
        storedAtStep.push(appended.length === calls());
      },
      { deltas: false },
    );
    const result = await run.result();
    expect(result.output).toBe(`asked ${TURNS}`);
    expect(storedAtStep.length).toBeGreaterThan(TURNS * 2);
    expect(storedAtStep.every(Boolean)).toBe(true);
    await inner.close();
  });

  it('a failed write stops the run with the store’s error, with at most one more step after it', async () => {
    const inner = new FileRunStore({ dir: directory });
    const { store } = slowStore(inner, 1, 4);
    const provider = turnsProvider();
    const agent = createAgent({
      tools: [weatherTool],
      provider,
      store,
      activities: [{ weather: () => ({ sky: 'sun' }) }],
    });
    await expect(agent.run({ task: 'Ask about six cities.', maxTurns: TURNS + 2 })).rejects.toThrow(
      'the disk is full',
    );
    // The fourth append failed in the second turn: the run did not go on asking the model.
    expect(provider.requests.length).toBeLessThanOrEqual(3);
    await inner.close();
  });
});
