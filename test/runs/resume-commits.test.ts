import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgent, FileRunStore, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import type { JournalEntry } from '../../src/runs/run-store';

/**
 * Opening a stored run writes a commit only when the resume changed what the store holds (issue
 * 31: a worker's Actor step re-wrote the stored commit on every turn, one database round trip each).
 * A resume that changes the limits, or a run whose stored status differs from its state's (a
 * `status` entry marked it failed), still writes one.
 */
let directory: string;
beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-resume-commits-'));
});
afterAll(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

const noteTool: ToolSchema = {
  type: 'object',
  description: 'Notes a word.',
  properties: { _tool: { const: 'note' }, word: { type: 'string' } },
  required: ['_tool', 'word'],
};

/** A FileRunStore that records every `append` it is given. */
class RecordingStore extends FileRunStore {
  readonly appended: JournalEntry[][] = [];
  override async append(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    this.appended.push([...entries]);
    await super.append(runId, entries);
  }
}

function agentOn(store: RecordingStore) {
  return createAgent({
    tools: [noteTool],
    activities: [{ note: (params) => ({ noted: params.word }) }],
    provider: new ScriptedProvider([
      { calls: [{ _tool: 'note', word: 'one' }], output: null },
      { calls: [], output: 'noted' },
    ]),
    store,
  });
}

/** A run stepped through its first turn and Actor step, then left (as a process that stopped). */
async function storedRunAtPrompter(store: RecordingStore): Promise<string> {
  const run = agentOn(store).start({ task: 'Note one word.' });
  for (let step = 0; step < 4; step++) await run.step();
  expect(run.state.nextStep.module).toBe('prompter');
  return run.id;
}

describe('opening a stored run (issue 31)', () => {
  it('writes nothing when the resume changes nothing: its Prompter step after it writes nothing either', async () => {
    const store = new RecordingStore({ dir: directory });
    const runId = await storedRunAtPrompter(store);
    const before = store.appended.length;

    const run = await agentOn(store).resumeRun(runId);
    await run.step();
    expect(run.state.nextStep.module).toBe('generator');
    expect(store.appended.slice(before)).toEqual([]);

    // The run goes on from there as usual, and what is stored is the finished run.
    const result = await run.result();
    expect(result.output).toBe('noted');
    const loaded = await new FileRunStore({ dir: directory }).load(runId);
    expect(loaded?.status).toBe('completed');
    expect(loaded?.state).toEqual(JSON.parse(JSON.stringify(result.state)));
  });

  it('writes one commit when the resume changes the limits', async () => {
    const store = new RecordingStore({ dir: directory });
    const runId = await storedRunAtPrompter(store);
    const before = store.appended.length;

    const run = await agentOn(store).resumeRun(runId, { maxTurns: 7 });
    await run.step();
    const written = store.appended.slice(before).flat();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ type: 'commit', limits: { maxTurns: 7 }, nodes: [] });
    expect((await new FileRunStore({ dir: directory }).load(runId))?.state.limits.maxTurns).toBe(7);
  });

  it("writes one commit when the store's status is not the state's (a status entry marked it failed)", async () => {
    const store = new RecordingStore({ dir: directory });
    const runId = await storedRunAtPrompter(store);
    await store.append(runId, [
      { type: 'status', status: 'failed', time: new Date().toISOString() },
    ]);
    expect((await store.load(runId))?.status).toBe('failed');
    const before = store.appended.length;

    const run = await agentOn(store).resumeRun(runId);
    await run.step();
    const written = store.appended.slice(before).flat();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ type: 'commit', status: 'running', nodes: [] });
    expect((await new FileRunStore({ dir: directory }).load(runId))?.status).toBe('running');
  });
});
