import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  appendNode,
  createInitialState,
  FileRunStore,
  loadState,
  StateFileRunStore,
  StateFileStores,
  stateFileStoreDir,
  type AgentState,
} from 'ideact';
import { tempDir } from './store-fixtures';

/**
 * Issue 27 item 9: creating a run is atomic. A child process creates runs in a loop (and deletes
 * some) and is SIGKILLed at five different moments; after each kill the store opens with every
 * listed run loading, no half-made run folder and no leftover of the killed process, and takes new
 * runs. Likewise for a state file's one-run store (`<file>.run/` and the pointer beside it).
 */

const ROOT = path.resolve(__dirname, '../..');
// Plain JS on the built package (`npm test` builds first): a child starts in ~0.2 s.
const CHILD = path.join(__dirname, 'fixtures/create-runs-child.cjs');
/** Milliseconds after the child's first run before the kill (plus up to 10 ms at random). */
const DELAYS = [0, 15, 40, 80, 150];
/**
 * The delays of the kills: the five above, then — while no kill has yet landed inside a create or
 * delete (nothing to clean: the timing missed every window) — up to 15 more at random moments, so
 * the test always sees a crash it had to recover from, on a quiet or a loaded machine.
 */
function* killDelays(landed: () => boolean): Generator<number> {
  yield* DELAYS;
  for (let extra = 0; extra < 15 && !landed(); extra++) yield Math.floor(Math.random() * 120);
}
const RUN_FILES = ['checkpoint.json', 'journal.jsonl', 'run.json'];
/** A run folder's name (FileRunStore run ids); temp names start with a dot. */
const RUN_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** Starts the child; resolves once it created its first run. */
async function startChild(mode: 'store' | 'state-file', target: string) {
  const child = spawn(process.execPath, [CHILD, mode, target], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('created ')) resolve();
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`the child exited (${code ?? signal}) before its first run:\n${stderr}`)),
    );
  });
  return { child, exited, stderr: () => stderr };
}

/** Kills a running child after `delay` ms (+ jitter); it must have been running (SIGKILL). */
async function killAfter(child: Awaited<ReturnType<typeof startChild>>, delay: number) {
  await new Promise((resolve) => setTimeout(resolve, delay + Math.floor(Math.random() * 10)));
  child.child.kill('SIGKILL');
  expect({ ...(await child.exited), stderr: child.stderr() }).toEqual({
    code: null,
    signal: 'SIGKILL',
    stderr: '',
  });
}

/** The state the child stores for `runId` (`c_<pid>_<index>`): its task and four nodes of ~16 KB. */
function expectChildState(state: AgentState, runId: string): void {
  const index = runId.split('_')[2];
  expect(state.nodes.map((node) => (node.message as { text: string }).text)).toEqual([
    `create ${index}`,
    ...[0, 1, 2, 3].map((node) => `${runId} ${node} ${'x'.repeat(16_000)}`),
  ]);
}

/** Entries whose name is a temp name of an atomic write or a run folder being built or removed. */
const isTemp = (name: string) => /^\..+\.\d+\.[0-9a-f]+\.tmp$/.test(name);

/** The folder of one run must hold exactly its three files. */
async function expectWholeRunFolder(folder: string): Promise<void> {
  expect({ folder, files: (await fs.readdir(folder)).sort() }).toEqual({
    folder,
    files: RUN_FILES,
  });
}

function newState(runId: string, task: string): AgentState {
  const state = createInitialState({ task });
  state.runId = runId;
  appendNode(state, { type: 'text', role: 'assistant', text: task }, { module: 'generator' });
  return state;
}

describe('a SIGKILL during run creation leaves no half-made run (issue 27 item 9)', () => {
  it('FileRunStore: after each of 5 kills every listed run loads, the dir holds only whole run folders, and new runs are created', async () => {
    const dir = path.join(await tempDir(), 'runs');
    let leftovers = 0;
    let created = 0;
    let kill = 0;
    for (const delay of killDelays(() => leftovers > 0)) {
      kill += 1;
      const child = await startChild('store', dir);
      await killAfter(child, delay);
      // What the killed child left, before a store opens the dir.
      const raw = await fs.readdir(dir);
      leftovers += raw.filter(isTemp).length;

      const store = new FileRunStore({ dir });
      const rows = await store.list();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const run = await store.load(row.runId);
        expect(run?.header.runId).toBe(row.runId);
        if (row.runId.startsWith('c_')) expectChildState(run!.state, row.runId);
      }
      // No temp folder, no folder without its files: exactly the listed runs, each whole.
      const names = (await fs.readdir(dir)).sort();
      expect(names).toEqual(rows.map((row) => row.runId).sort());
      for (const name of names) {
        expect(name).toMatch(RUN_ID);
        await expectWholeRunFolder(path.join(dir, name));
      }
      // The store takes new runs.
      const runId = `after_${kill}`;
      await store.create(
        { runId, createdAt: new Date().toISOString() },
        newState(runId, `after kill ${kill}`),
      );
      expect((await store.load(runId))?.state.task).toBe(`after kill ${kill}`);
      await expectWholeRunFolder(path.join(dir, runId));
      await store.close();
      created = rows.length;
    }
    expect(created).toBeGreaterThan(DELAYS.length);
    // The kills landed inside creates or deletes (each run's ~64 KB are written and fsynced in a
    // temp folder), so the test did see leftovers to clean up.
    expect(leftovers).toBeGreaterThan(0);
  }, 120_000);

  it('stateFile: after each of 5 kills the file names a whole run that loads, nothing half-made or temporary is left, and a new run replaces it', async () => {
    const base = await tempDir();
    const file = path.join(base, 'state.json');
    const storeDir = stateFileStoreDir(file);
    let leftovers = 0;
    let kill = 0;
    for (const delay of killDelays(() => leftovers > 0)) {
      kill += 1;
      const child = await startChild('state-file', file);
      await killAfter(child, delay);
      leftovers +=
        (await fs.readdir(base)).filter(isTemp).length +
        (await fs.readdir(storeDir)).filter(isTemp).length;

      const opened = await new StateFileStores().open(file);
      const pointed = opened.run.header.runId;
      expectChildState(opened.run.state, pointed);
      await opened.store.close?.();
      expectChildState(await loadState(file), pointed);
      // Beside the file: the file and its store; in the store: whole runs only (the one the file
      // names, and at most the one a kill caught between the pointer's rewrite and its removal).
      expect((await fs.readdir(base)).sort()).toEqual(['state.json', 'state.json.run']);
      const names = await fs.readdir(storeDir);
      expect(names).toContain(pointed);
      expect(names.length).toBeLessThanOrEqual(2);
      const files = new FileRunStore({ dir: storeDir });
      for (const name of names) {
        expect(name).toMatch(RUN_ID);
        await expectWholeRunFolder(path.join(storeDir, name));
        expectChildState((await files.load(name))!.state, name);
      }

      // A new run of the file replaces it and leaves only itself.
      const runId = `after_${kill}`;
      const store = new StateFileRunStore(file);
      await store.create(
        { runId, createdAt: new Date().toISOString() },
        newState(runId, `after kill ${kill}`),
      );
      await store.close();
      expect((await loadState(file)).task).toBe(`after kill ${kill}`);
      expect(await fs.readdir(storeDir)).toEqual([runId]);
    }
    expect(leftovers).toBeGreaterThan(0);
  }, 120_000);
});
