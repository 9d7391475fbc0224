import * as net from 'node:net';
import {
  appendNode,
  createAgent,
  createInitialState,
  DatabaseConnectionError,
  PostgresRunStore,
  RunExistsError,
  RunNotFoundError,
  type AgentState,
  type PostgresRunStoreOptions,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { Pool } from 'pg';
import { commitEntry } from '../../src/runs/run-journal';
import type { JournalEntry, RunHeader, RunStore } from '../../src/runs/run-store';
import {
  makeRunModuleRoot,
  nestedScript,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
} from '../agent/run-fixtures';
import { databaseForThisFile } from '../support/test-database';

/**
 * PostgresRunStore (issue 18 item 1) against a real PostgreSQL (test/support/test-database.ts):
 * what `load` rebuilds equals the in-memory state, whatever the journal held (rollbacks,
 * checkpoints, nested runs), and the schema, connection and id errors are the typed ones.
 */
const database = databaseForThisFile();
const stores: RunStore[] = [];
let moduleRoot: string;

beforeAll(async () => {
  moduleRoot = await makeRunModuleRoot();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close?.()));
  await removeRunModuleRoot(moduleRoot);
});

/** A store on this file's schema (closed after the file). */
function openStore(options: PostgresRunStoreOptions = {}): PostgresRunStore {
  const store = new PostgresRunStore({
    connectionString: database.url,
    schema: database.schema,
    ...options,
  });
  stores.push(store);
  return store;
}

let counter = 0;
function header(extra: Partial<RunHeader> = {}): RunHeader {
  counter += 1;
  return { runId: `run_${Date.now()}_${counter}`, createdAt: new Date().toISOString(), ...extra };
}

/** What a store gives back for an in-memory state: the state as JSON, its due prompt left out. */
function asStored(state: AgentState): AgentState {
  const copy = JSON.parse(JSON.stringify(state)) as AgentState;
  copy.nextStep = commitEntry(state, state.nodes.length).nextStep;
  return copy;
}

/** A state of `count` user/assistant text nodes after a system node. */
function textState(count: number, task = 'count'): AgentState {
  const state = createInitialState({
    task,
    context: [{ type: 'system', text: 'You count.' }],
  });
  for (let index = 0; index < count; index++) {
    appendNode(state, { type: 'text', text: `note ${index}` }, { module: 'user' });
  }
  return state;
}

describe('PostgresRunStore (issue 18 item 1)', () => {
  it('round trip: a real scripted run with a nested agent, committed step by step, loads equal to the in-memory state after every step; nested runs come back in metadata.nested', async () => {
    const store = openStore();
    const agent = createAgent({
      tools: [summarizeTool, plannerTool],
      activities: [sunny],
      provider: new ScriptedProvider(nestedScript),
      moduleRoot,
    });
    const run = agent.start({ task: 'Summarize and plan' });
    const runHeader = header({ runId: run.id, task: 'Summarize and plan' });
    await store.create(runHeader, run.state);
    let committed = run.state.nodes.length;
    let steps = 0;
    for (;;) {
      const next = await run.step();
      steps += 1;
      const entry = commitEntry(run.state, committed);
      committed = run.state.nodes.length;
      // The nested agents' states are stored as runs of their own, linked by parent id.
      for (const node of entry.nodes) {
        const nested = run.state.nodes[node.id]?.metadata.nested ?? [];
        for (const state of nested) await storeNestedRun(store, state, run.id, node);
      }
      await store.append(run.id, [entry]);
      if (next.module === 'done') break;
      const loaded = await store.load(run.id);
      expect(loaded?.state).toEqual(asStored(run.state));
    }
    expect(steps).toBeGreaterThan(4);
    const loaded = await store.load(run.id);
    expect(loaded?.status).toBe('completed');
    expect(loaded?.header).toEqual(runHeader);
    expect(loaded?.state).toEqual(JSON.parse(JSON.stringify(run.state)));
    const withNested = loaded?.state.nodes.filter((node) => node.metadata.nested !== undefined);
    expect(withNested).toHaveLength(1);
    expect(withNested?.[0]?.metadata.nestedRunIds).toBeUndefined();
    expect(withNested?.[0]?.metadata.nested?.[0]?.nodes.length).toBeGreaterThan(2);
    // The journal holds nestedRunIds, not the nested states.
    const rows = await database.query<{ entry: string }>(
      `SELECT entry::text AS entry FROM "${database.schema}".journal_entries WHERE run_id = $1`,
      [run.id],
    );
    expect(rows.some((row) => row.entry.includes('"nestedRunIds"'))).toBe(true);
    expect(rows.some((row) => row.entry.includes('"nested":'))).toBe(false);
    const nestedRuns = await store.list({ parentRunId: run.id });
    expect(nestedRuns.map((summary) => summary.status)).toEqual(['completed']);
  });

  it('a rolled-back step (a commit from a lower index) drops the later nodes and unlinks them from their parents', async () => {
    const store = openStore();
    const first = textState(3);
    const runHeader = header();
    await store.create(runHeader, textState(0));
    await store.append(runHeader.runId, [commitEntry(first, 0)]);
    expect((await store.load(runHeader.runId))?.state).toEqual(asStored(first));

    // The step that appended node 4 (the last text node) is redone differently, from node 3.
    const redone = textState(2);
    appendNode(redone, { type: 'text', text: 'other' }, { module: 'user' });
    appendNode(redone, { type: 'text', text: 'and more' }, { module: 'user' });
    await store.append(runHeader.runId, [commitEntry(redone, first.nodes.length - 1)]);
    const loaded = await store.load(runHeader.runId);
    expect(loaded?.state).toEqual(asStored(redone));
    expect(loaded?.state.nodes[2]?.children).toEqual([3]);
  });

  it('compaction: a checkpoint every N commits replaces the journal it covers; load still equals the state, attempts and open Calls carry over', async () => {
    const store = openStore({ checkpointEvery: 3 });
    const runHeader = header();
    const state = textState(0);
    await store.create(runHeader, state);
    let committed = state.nodes.length;
    const time = new Date().toISOString();
    for (let index = 0; index < 10; index++) {
      appendNode(state, { type: 'text', text: `step ${index}` }, { module: 'user' });
      const entries: JournalEntry[] = [
        { type: 'call-start', callId: `c${index}`, attempt: 1, time },
        commitEntry(state, committed),
      ];
      // Every Call ends but c1 (a crash between its start and end).
      if (index !== 1) entries.push({ type: 'call-end', callId: `c${index}`, ok: true, time });
      await store.append(runHeader.runId, entries);
      committed = state.nodes.length;
    }
    const checkpoints = await database.query<{ covers_seq: string }>(
      `SELECT covers_seq FROM "${database.schema}".checkpoints WHERE run_id = $1`,
      [runHeader.runId],
    );
    expect(checkpoints).toHaveLength(1);
    const journal = await database.query<{ count: string }>(
      `SELECT count(*) FROM "${database.schema}".journal_entries WHERE run_id = $1`,
      [runHeader.runId],
    );
    // 10 commits with a checkpoint after the 9th: only the 10th append's 3 entries remain.
    expect(Number(journal[0]?.count)).toBe(3);
    const loaded = await store.load(runHeader.runId);
    expect(loaded?.state).toEqual(asStored(state));
    expect(loaded?.openCalls).toEqual([{ callId: 'c1', attempt: 1 }]);
    expect(Object.keys(loaded?.attempts ?? {})).toHaveLength(10);
    // A store without checkpoints (another process, default N) reads the same run alike.
    expect((await openStore().load(runHeader.runId))?.state).toEqual(asStored(state));
  });

  it('concurrent appends to different runs each land in their own journal, in order', async () => {
    const store = openStore({ checkpointEvery: 4 });
    const runs = Array.from({ length: 6 }, () => ({ header: header(), state: textState(0) }));
    await Promise.all(runs.map((run) => store.create(run.header, run.state)));
    await Promise.all(
      runs.map(async (run, runIndex) => {
        for (let index = 0; index < 12; index++) {
          const from = run.state.nodes.length;
          appendNode(
            run.state,
            { type: 'text', text: `run ${runIndex} step ${index}` },
            {
              module: 'user',
            },
          );
          await store.append(run.header.runId, [commitEntry(run.state, from)]);
        }
      }),
    );
    for (const run of runs) {
      expect((await store.load(run.header.runId))?.state).toEqual(asStored(run.state));
    }
  });

  it('concurrent appends to one run from two stores: each append lands whole, never interleaved, none lost', async () => {
    const [left, right] = [openStore(), openStore()];
    const runHeader = header();
    await left.create(runHeader, textState(0));
    const time = new Date().toISOString();
    const append = (store: PostgresRunStore, callId: string): Promise<void> =>
      store.append(runHeader.runId, [
        { type: 'call-start', callId, attempt: 1, time },
        { type: 'call-end', callId, ok: true, time },
      ]);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => append(index % 2 === 0 ? left : right, `c${index}`)),
    );
    const rows = await database.query<{ entry: JournalEntry }>(
      `SELECT entry FROM "${database.schema}".journal_entries WHERE run_id = $1 ORDER BY seq`,
      [runHeader.runId],
    );
    expect(rows).toHaveLength(40);
    for (let index = 0; index < rows.length; index += 2) {
      const [start, end] = [rows[index]?.entry, rows[index + 1]?.entry];
      expect(start?.type).toBe('call-start');
      expect(end).toMatchObject({ type: 'call-end', callId: (start as { callId: string }).callId });
    }
    expect((await right.load(runHeader.runId))?.openCalls).toEqual([]);
  });

  it('list: newest first, filtered by status and parent (null: top-level), limited; delete removes a run with its nested runs', async () => {
    const store = openStore({ schema: database.newSchema() });
    const parent = header({ createdAt: '2026-01-01T00:00:00.000Z', task: 'parent' });
    const child = header({
      createdAt: '2026-01-01T00:00:01.000Z',
      parentRunId: parent.runId,
      parentCallId: '1:0',
    });
    const grandchild = header({ createdAt: '2026-01-01T00:00:02.000Z', parentRunId: child.runId });
    const other = header({ createdAt: '2026-01-01T00:00:03.000Z' });
    for (const runHeader of [parent, child, grandchild, other]) {
      await store.create(runHeader, textState(1));
    }
    const done = textState(1);
    done.nextStep = { module: 'done', args: { reason: 'output', output: 'ok' } };
    await store.append(other.runId, [commitEntry(done, done.nodes.length)]);
    await store.append(parent.runId, [
      { type: 'status', status: 'cancelled', time: '2026-01-02T00:00:00.000Z' },
    ]);

    const all = await store.list();
    expect(all.map((run) => run.runId)).toEqual([
      other.runId,
      grandchild.runId,
      child.runId,
      parent.runId,
    ]);
    expect(all[0]).toMatchObject({ status: 'completed', stopReason: 'output' });
    expect(all[3]).toMatchObject({
      status: 'cancelled',
      task: 'parent',
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    expect(all[2]).toMatchObject({ parentRunId: parent.runId, parentCallId: '1:0' });
    const topLevel = await store.list({ parentRunId: null });
    expect(topLevel.map((run) => run.runId)).toEqual([other.runId, parent.runId]);
    expect((await store.list({ parentRunId: parent.runId })).map((run) => run.runId)).toEqual([
      child.runId,
    ]);
    expect((await store.list({ status: 'running' })).map((run) => run.runId)).toEqual([
      grandchild.runId,
      child.runId,
    ]);
    expect(await store.list({ status: ['completed', 'cancelled'], limit: 1 })).toHaveLength(1);

    await store.delete(parent.runId);
    expect((await store.list()).map((run) => run.runId)).toEqual([other.runId]);
    expect(await store.load(child.runId)).toBeUndefined();
    await store.delete('no-such-run');
  });

  it('a node whose nested run was deleted on its own keeps metadata.nestedRunIds', async () => {
    const store = openStore();
    const parentHeader = header();
    const nestedHeader = header({ parentRunId: parentHeader.runId });
    const nested = textState(1);
    nested.runId = nestedHeader.runId;
    const parent = textState(1);
    const node = appendNode(parent, { type: 'text', text: 'result' }, { module: 'actor' });
    node.metadata.nested = [nested];
    await store.create(parentHeader, textState(1));
    await store.create(nestedHeader, nested);
    await store.append(parentHeader.runId, [commitEntry(parent, node.id)]);
    expect((await store.load(parentHeader.runId))?.state).toEqual(asStored(parent));
    await store.delete(nestedHeader.runId);
    const loaded = await store.load(parentHeader.runId);
    expect(loaded?.state.nodes[node.id]?.metadata).toMatchObject({
      nestedRunIds: [nestedHeader.runId],
    });
    expect(loaded?.state.nodes[node.id]?.metadata.nested).toBeUndefined();
  });

  it('the migration is idempotent: two stores migrate a fresh schema at once, a third finds it done', async () => {
    const schema = database.newSchema();
    const [left, right] = [openStore({ schema }), openStore({ schema })];
    const headers = [header(), header()];
    await Promise.all([
      left.create(headers[0] as RunHeader, textState(1)),
      right.create(headers[1] as RunHeader, textState(1)),
    ]);
    expect(await openStore({ schema }).list()).toHaveLength(2);
    const versions = await database.query(`SELECT version FROM "${schema}".schema_version`);
    expect(versions).toEqual([{ version: 5 }]);
  });

  it('a schema at version 1 migrates to the latest (5) with its runs kept; a nested run keeps the module in its header (a worker rebuilds its agent from it)', async () => {
    const schema = database.newSchema();
    const old = openStore({ schema });
    const kept = header();
    await old.create(kept, textState(1));
    // What an ideact before nested child workflows left: no nested_module column (nor the later
    // experiment column), version 1.
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN nested_module`);
    // …nor the served runs' labels and events (version 3, issue 32).
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN labels`);
    await database.query(`DROP TABLE "${schema}".run_events`);
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN experiment`);
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN checkpoint_commits`);
    await database.query(`UPDATE "${schema}".schema_version SET version = 1`);

    const store = openStore({ schema });
    const nestedModule = {
      id: '/ideas/helper.json',
      toolName: 'helper',
      schema: { type: 'object', properties: { calls: { type: 'array' } } },
      depth: 1,
      chain: ['/ideas/helper.json'],
    };
    const nested = header({ parentRunId: kept.runId, parentCallId: '1:0', nestedModule });
    await store.create(nested, textState(1));
    expect((await store.load(nested.runId))?.header).toEqual(nested);
    expect((await store.load(kept.runId))?.header).toEqual(kept);
    const versions = await database.query(`SELECT version FROM "${schema}".schema_version`);
    expect(versions).toEqual([{ version: 5 }]);
  });

  it('issue 33: a schema at version 3 migrates to the latest (5) with its runs kept; a run an eval started keeps its experiment in its header (list and load)', async () => {
    const schema = database.newSchema();
    const old = openStore({ schema });
    const kept = header();
    await old.create(kept, textState(1));
    // What an ideact before evals left: no experiment column, version 3.
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN experiment`);
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN checkpoint_commits`);
    await database.query(`UPDATE "${schema}".schema_version SET version = 3`);

    const store = openStore({ schema });
    const tagged = header({
      experiment: { id: 'music-20260101T000000-ab12', case: 'ballad', trial: 2 },
    });
    await store.create(tagged, textState(1));
    expect((await store.load(tagged.runId))?.header).toEqual(tagged);
    expect((await store.load(kept.runId))?.header).toEqual(kept);
    const listed = await store.list();
    expect(listed.find((row) => row.runId === tagged.runId)?.experiment).toEqual(tagged.experiment);
    expect(listed.find((row) => row.runId === kept.runId)).not.toHaveProperty('experiment');
    // An experiment's runs, found by its id (RunFilter.experiment).
    const other = header({
      experiment: { id: 'music-20260102T000000-cd34', case: 'ballad', trial: 1 },
    });
    await store.create(other, textState(1));
    const ofExperiment = await store.list({ experiment: 'music-20260101T000000-ab12' });
    expect(ofExperiment.map((row) => row.runId)).toEqual([tagged.runId]);
    const versions = await database.query(`SELECT version FROM "${schema}".schema_version`);
    expect(versions).toEqual([{ version: 5 }]);
  });

  it.each([
    // Checkpoints after commits 3, 6, 9, 14 and 21: each once the commits past the last one are
    // at least 3 and half of those it covers; the journal keeps commits 22–30.
    [0.5, 21, 9],
    // Strictly every 3 commits: the 30th is covered, the journal is empty.
    [0, 30, 0],
  ])(
    'issue 31: checkpointGrowth %s (checkpointEvery 3): after 30 commits the checkpoint covers %s and the journal holds %s entries; load equals the state',
    async (checkpointGrowth, covered, left) => {
      const store = openStore({ checkpointEvery: 3, checkpointGrowth });
      const runHeader = header();
      const state = textState(0);
      await store.create(runHeader, state);
      for (let index = 0; index < 30; index++) {
        const from = state.nodes.length;
        appendNode(state, { type: 'text', text: `step ${index}` }, { module: 'user' });
        await store.append(runHeader.runId, [commitEntry(state, from)]);
      }
      const [run] = await database.query<{ checkpoint_commits: number }>(
        `SELECT checkpoint_commits FROM "${database.schema}".runs WHERE run_id = $1`,
        [runHeader.runId],
      );
      expect(run?.checkpoint_commits).toBe(covered);
      const journal = await database.query<{ count: string }>(
        `SELECT count(*) FROM "${database.schema}".journal_entries WHERE run_id = $1`,
        [runHeader.runId],
      );
      expect(Number(journal[0]?.count)).toBe(left);
      expect((await store.load(runHeader.runId))?.state).toEqual(asStored(state));
    },
  );

  it('issue 31: a schema at version 4 migrates to 5; a run it held goes on, its checkpoints counted from then on', async () => {
    const schema = database.newSchema();
    const old = openStore({ schema, checkpointEvery: 2 });
    const kept = header();
    const state = textState(0);
    await old.create(kept, state);
    await database.query(`ALTER TABLE "${schema}".runs DROP COLUMN checkpoint_commits`);
    await database.query(`UPDATE "${schema}".schema_version SET version = 4`);

    const store = openStore({ schema, checkpointEvery: 2 });
    for (let index = 0; index < 5; index++) {
      const from = state.nodes.length;
      appendNode(state, { type: 'text', text: `step ${index}` }, { module: 'user' });
      await store.append(kept.runId, [commitEntry(state, from)]);
    }
    expect((await store.load(kept.runId))?.state).toEqual(asStored(state));
    const [run] = await database.query<{ checkpoint_commits: number }>(
      `SELECT checkpoint_commits FROM "${schema}".runs WHERE run_id = $1`,
      [kept.runId],
    );
    expect(run?.checkpoint_commits).toBe(4);
    const versions = await database.query(`SELECT version FROM "${schema}".schema_version`);
    expect(versions).toEqual([{ version: 5 }]);
  });

  it('create on an existing id rejects with RunExistsError; append to an unknown run with RunNotFoundError; load of one is undefined', async () => {
    const store = openStore();
    const runHeader = header();
    await store.create(runHeader, textState(1));
    const again = store.create(runHeader, textState(2));
    await expect(again).rejects.toBeInstanceOf(RunExistsError);
    await expect(again).rejects.toMatchObject({ code: 'RUN_EXISTS', runId: runHeader.runId });
    expect((await store.load(runHeader.runId))?.state.nodes).toHaveLength(3);
    await expect(store.append('no-such-run', [])).rejects.toBeInstanceOf(RunNotFoundError);
    expect(await store.load('no-such-run')).toBeUndefined();
  });

  it('a server that does not answer: DatabaseConnectionError naming host and port, not the password, and npm run pg:start', async () => {
    const port = await closedPort();
    const store = new PostgresRunStore({
      connectionString: `postgres://someone:s3cret-pw@127.0.0.1:${port}/nothing`,
      connectionTimeoutMs: 2_000,
    });
    try {
      const error = await store.list().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DatabaseConnectionError);
      const connection = error as DatabaseConnectionError;
      expect(connection.code).toBe('DATABASE_CONNECTION');
      expect(connection.target).toBe(`127.0.0.1:${port}`);
      expect(connection.message).toContain(`127.0.0.1:${port}`);
      expect(connection.message).toContain('database "nothing"');
      expect(connection.message).toContain('npm run pg:start');
      expect(connection.message).not.toContain('s3cret-pw');
    } finally {
      await store.close();
    }
  });

  it('a database that does not exist is a DatabaseConnectionError too', async () => {
    const url = new URL(database.url);
    url.pathname = '/ideact_no_such_database';
    const store = new PostgresRunStore({ connectionString: url.toString() });
    await expect(store.list()).rejects.toBeInstanceOf(DatabaseConnectionError);
    await store.close();
  });

  it('close() ends the pool the store made but leaves a pool passed in open', async () => {
    const pool = new Pool({ connectionString: database.url, max: 2 });
    try {
      const store = new PostgresRunStore({ pool, schema: database.schema });
      await store.list();
      await store.close();
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
    const own = new PostgresRunStore({ connectionString: database.url, schema: database.schema });
    await own.list();
    await own.close();
    await expect(own.list()).rejects.toThrow(/after calling end/);
  });
});

/** Stores a nested agent's final state as a run of its own (created empty, then one commit). */
async function storeNestedRun(
  store: RunStore,
  state: AgentState,
  parentRunId: string,
  node: { id: number },
): Promise<void> {
  const empty: AgentState = {
    ...structuredClone(state),
    nodes: [],
    head: null,
    nextStep: { module: 'prompter', args: {} },
  };
  await store.create(
    header({ runId: state.runId as string, parentRunId, parentCallId: `${node.id}` }),
    empty,
  );
  await store.append(state.runId as string, [commitEntry(state, 0)]);
}

/** A port on 127.0.0.1 that nothing listens on (one the kernel just gave and took back). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("PostgresRunStore as an agent's store (issue 18 item 1)", () => {
  it('createAgent({ store }): the run, journaled by the agent loop, loads equal to result.state, its nested run linked by parent id', async () => {
    const store = openStore({ checkpointEvery: 2 });
    const agent = createAgent({
      tools: [summarizeTool, plannerTool],
      activities: [sunny],
      provider: new ScriptedProvider(nestedScript),
      moduleRoot,
      store,
    });
    const result = await agent.run({ task: 'Summarize and plan' });
    expect(result.output).toBe('done');
    const loaded = await store.load(result.runId);
    expect(loaded?.status).toBe('completed');
    expect(loaded?.openCalls).toEqual([]);
    expect(loaded?.state).toEqual(JSON.parse(JSON.stringify(result.state)));
    const nested = await store.list({ parentRunId: result.runId });
    expect(nested).toHaveLength(1);
    expect(nested[0]).toMatchObject({ status: 'completed', parentRunId: result.runId });
    expect((await store.list({ parentRunId: null })).map((run) => run.runId)).toContain(
      result.runId,
    );
  });
});
