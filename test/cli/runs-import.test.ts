import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  FileRunStore,
  PostgresRunStore,
  createAgent,
  saveState,
  type AgentState,
  type RunSummary,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  makeRunModuleRoot,
  nestedScript,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
} from '../agent/run-fixtures';
import { databaseForThisFile } from '../support/test-database';
import { runCli } from './run-cli';

/**
 * `ideact runs import <state.json>` (issue 18, docs/durable-runs.md "Migrating old state files"):
 * an older whole-state file becomes a run of any store, through the built CLI; the file is only read.
 */
const FIXTURE = path.join(__dirname, '..', 'store', 'fixtures', 'state-file-before-run-ids.json');
const database = databaseForThisFile();
let workDir: string;
let moduleRoot: string;

beforeAll(async () => {
  moduleRoot = await makeRunModuleRoot();
});
afterAll(async () => {
  await removeRunModuleRoot(moduleRoot);
});
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-import-'));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** Removes the run ids, as state files written before run ids existed (4a6ca99^) had none. */
function withoutRunIds(state: AgentState): AgentState {
  delete state.runId;
  for (const node of state.nodes) {
    for (const nested of node.metadata.nested ?? []) withoutRunIds(nested);
  }
  return state;
}

it('imports an older state file with a nested agent into a FileRunStore: the run and its nested run, linked', async () => {
  const agent = createAgent({
    tools: [summarizeTool, plannerTool],
    activities: [sunny],
    provider: new ScriptedProvider(nestedScript),
    moduleRoot,
  });
  const result = await agent.run({ task: 'Summarize and plan' });
  expect(result.output).toBe('done');
  const file = path.join(workDir, 'old.json');
  await saveState(file, withoutRunIds(structuredClone(result.state)));
  const original = await fs.readFile(file);
  const dir = path.join(workDir, 'store');

  const imported = await runCli(['runs', 'import', file, '--dir', dir, '--json']);
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);
  const { runId } = JSON.parse(imported.stdout) as { runId: string };
  expect(runId).toMatch(/^run_/);

  const listed = await runCli(['runs', 'list', '--dir', dir, '--all', '--json']);
  const rows = JSON.parse(listed.stdout) as RunSummary[];
  expect(rows.map((row) => [row.runId === runId ? 'top' : 'nested', row.status]).sort()).toEqual([
    ['nested', 'completed'],
    ['top', 'completed'],
  ]);
  const nested = rows.find((row) => row.runId !== runId)!;
  expect(nested).toMatchObject({ parentRunId: runId, parentCallId: '1:1' });

  const stored = await new FileRunStore({ dir }).load(runId);
  expect(stored?.state.nodes.map((node) => node.message)).toEqual(
    result.state.nodes.map((node) => node.message),
  );
  const plannerNode = stored!.state.nodes.find((node) => node.metadata.nested !== undefined)!;
  expect(plannerNode.metadata.nested?.[0]?.nextStep).toEqual(
    result.state.nodes.find((node) => node.metadata.nested !== undefined)!.metadata.nested?.[0]
      ?.nextStep,
  );
  expect((await fs.readFile(file)).equals(original)).toBe(true);
}, 30_000);

it('imports an older state file into PostgreSQL with --database-url and prints the run id', async () => {
  const file = path.join(workDir, 'trip.json');
  await fs.copyFile(FIXTURE, file);
  const imported = await runCli([
    'runs',
    'import',
    file,
    '--database-url',
    database.url,
    '--schema',
    database.schema,
  ]);
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);
  const runId = /^imported .*trip\.json as run (\S+)\n$/.exec(imported.stdout)?.[1];
  expect(runId).toMatch(/^run_/);

  const store = new PostgresRunStore({ connectionString: database.url, schema: database.schema });
  try {
    const stored = await store.load(runId!);
    expect(stored?.status).toBe('stopped');
    expect(stored?.state.nodes).toHaveLength(4);
    expect(stored?.state.nextStep).toEqual({
      module: 'done',
      args: { reason: 'max_turns', pending: { module: 'prompter', args: {} } },
    });
  } finally {
    await store.close();
  }
}, 30_000);

it('an import of a run the store already holds fails (the run exists); a torn file with the JSON path', async () => {
  const file = path.join(workDir, 'head.json');
  await fs.copyFile(
    path.join(__dirname, '..', 'store', 'fixtures', 'state-file-before-run-stores.json'),
    file,
  );
  const dir = path.join(workDir, 'store');
  expect((await runCli(['runs', 'import', file, '--dir', dir])).stdout).toBe(
    `imported ${file} as run run_1e09d3ab9f35\n`,
  );
  const again = await runCli(['runs', 'import', file, '--dir', dir]);
  expect(again.code).not.toBe(0);
  expect(again.stderr).toContain('Run "run_1e09d3ab9f35" already exists');

  const text = await fs.readFile(FIXTURE, 'utf8');
  const torn = path.join(workDir, 'torn.json');
  await fs.writeFile(torn, text.slice(0, text.indexOf('"tempC"')));
  const failed = await runCli(['runs', 'import', torn, '--dir', dir]);
  expect(failed.code).not.toBe(0);
  expect(failed.stderr).toContain(`${torn}" is invalid at /nodes/2/message/output`);
}, 30_000);
