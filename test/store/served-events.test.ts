import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createInitialState,
  FileRunStore,
  PostgresRunStore,
  type RunEvent,
  type RunStore,
  type StoredRunEvent,
} from 'ideact';
import { databaseForThisFile } from '../support/test-database';

/**
 * Issue 32 item 1: the stores keep a served run's events with their numbers (what `Last-Event-ID`
 * resumes from after a restart, on any server sharing the store) and the header's labels (who owns
 * the run), in files and in PostgreSQL alike.
 */
const database = databaseForThisFile();
let directory: string;

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-served-events-'));
});
afterAll(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

function event(runId: string, index: number): RunEvent {
  return {
    type: 'step',
    module: 'prompter',
    next: 'generator',
    usage: {
      inputTokens: index,
      outputTokens: 0,
      cachedTokens: 0,
      steps: index,
      turns: 0,
      elapsedMs: 0,
    },
    runId,
    path: [runId],
    time: 1_000 + index,
  };
}

const stores: Array<[string, () => RunStore]> = [
  ['FileRunStore', () => new FileRunStore({ dir: directory })],
  [
    'PostgresRunStore',
    () => new PostgresRunStore({ connectionString: database.url, schema: database.schema }),
  ],
];

describe.each(stores)('%s', (_name, makeStore) => {
  it('appends numbered events and reads them back after a number, also from a new store object (a restarted server)', async () => {
    const store = makeStore();
    const runId = `run_events_${Math.random().toString(16).slice(2, 10)}`;
    await store.create({ runId, createdAt: new Date().toISOString() }, createInitialState());
    const batch = (from: number, count: number): StoredRunEvent[] =>
      Array.from({ length: count }, (_, index) => ({
        seq: from + index,
        event: event(runId, from + index),
      }));
    await store.appendEvents!(runId, batch(1, 3));
    await store.appendEvents!(runId, batch(4, 2));
    expect((await store.readEvents!(runId)).map((stored) => stored.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await store.readEvents!(runId, 3)).toEqual(batch(4, 2));
    await store.close?.();
    const reopened = makeStore();
    expect(await reopened.readEvents!(runId, 4)).toEqual(batch(5, 1));
    expect(await reopened.readEvents!(runId, 5)).toEqual([]);
    await reopened.delete(runId);
    expect(await reopened.readEvents!(runId).catch(() => [])).toEqual([]);
    await reopened.close?.();
  });

  it('keeps header labels and lists runs by them', async () => {
    const store = makeStore();
    const tag = Math.random().toString(16).slice(2, 10);
    const mine = `run_mine_${tag}`;
    const theirs = `run_theirs_${tag}`;
    const labels = { principal: `alice-${tag}`, agent: 'helper' };
    await store.create(
      { runId: mine, createdAt: new Date().toISOString(), labels },
      createInitialState(),
    );
    await store.create(
      { runId: theirs, createdAt: new Date().toISOString(), labels: { principal: `bob-${tag}` } },
      createInitialState(),
    );
    expect((await store.load(mine))?.header.labels).toEqual(labels);
    const listed = await store.list({ labels: { principal: `alice-${tag}` } });
    expect(listed.map((row) => row.runId)).toEqual([mine]);
    expect(listed[0]?.labels).toEqual(labels);
    await store.close?.();
  });
});

it('FileRunStore: a line a kill cut short is skipped on read and cut off by the next append', async () => {
  const store = new FileRunStore({ dir: directory });
  const runId = 'run_torn_events';
  await store.create({ runId, createdAt: new Date().toISOString() }, createInitialState());
  await store.appendEvents!(runId, [{ seq: 1, event: event(runId, 1) }]);
  await fs.appendFile(path.join(directory, runId, 'events.jsonl'), '{"seq":2,"event":{"ty');
  // The process that wrote it was killed: the next server opens the store anew.
  const restarted = new FileRunStore({ dir: directory });
  expect((await restarted.readEvents!(runId)).map((stored) => stored.seq)).toEqual([1]);
  await restarted.appendEvents!(runId, [{ seq: 2, event: event(runId, 2) }]);
  expect(await restarted.readEvents!(runId)).toEqual([
    { seq: 1, event: event(runId, 1) },
    { seq: 2, event: event(runId, 2) },
  ]);
});
