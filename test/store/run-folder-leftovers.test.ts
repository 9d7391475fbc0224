import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  createAgent,
  FileRunStore,
  InvalidAgentStateError,
  loadState,
  StateFileRunStore,
  StateFileStores,
  stateFileStoreDir,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { recordRun, tempDir, type RecordedRun } from './store-fixtures';

/**
 * Issue 27 item 9: what a killed process leaves (temp files of an atomic write cut short before its
 * rename, `.<name>.<pid>.<hex>.tmp`, and temp run folders) is removed by the next open of the store
 * or run; a run-folder file that is a directory is an InvalidAgentStateError naming it.
 */

/** A pid that no process has any more: a child that ran and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

/** A live process other than this one (a writer that is still at work), stopped after the test. */
const living: ChildProcess[] = [];
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  living.push(child);
  return child.pid as number;
}
afterAll(() => {
  for (const child of living) child.kill('SIGKILL');
});

/** Plants a temp file (`.<name>.<pid>.<hex>.tmp`) beside `target`, as a write cut short leaves it. */
async function plantTemp(target: string, pid: number): Promise<string> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${pid}.0a1b2c3d.tmp`);
  await fs.writeFile(temp, '{"torn":');
  return temp;
}

/** Plants a temp run folder (a create cut short before its rename). */
async function plantTempFolder(dir: string, runId: string, pid: number): Promise<string> {
  const folder = path.join(dir, `.${runId}.${pid}.9e8f7a6b.tmp`);
  await fs.mkdir(folder);
  await fs.writeFile(path.join(folder, 'checkpoint.json'), '{"version":1');
  return folder;
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** Every file under `dir` with its bytes (to show that the real files were not touched). */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    result[path.relative(dir, file)] = await fs.readFile(file, 'utf8');
  }
  return result;
}

let weather: RecordedRun;
beforeAll(async () => {
  weather = await recordRun(['Oslo', 'Lima']);
});

/** Stores the weather run (create, then each entry) in `store`. */
async function storeWeather(store: FileRunStore | StateFileRunStore): Promise<void> {
  await store.create(
    { runId: weather.runId, createdAt: '2026-01-01T00:00:00.000Z', task: weather.initial.task },
    weather.initial,
  );
  for (const entry of weather.entries) await store.append(weather.runId, [entry]);
  await store.close?.();
}

describe('stale temp files are removed on the next open (issue 27 item 9)', () => {
  it('beside a state file and inside <file>.run/: the dead writers’ temps go, a live writer’s and other files’ stay, the real files are intact', async () => {
    const base = await tempDir();
    const file = path.join(base, 'state.json');
    await storeWeather(new StateFileRunStore(file));
    const storeDir = stateFileStoreDir(file);
    const runFolder = path.join(storeDir, weather.runId);
    const before = { beside: await fs.readFile(file, 'utf8'), store: await snapshot(storeDir) };

    const dead = await deadPid();
    const live = livePid();
    const stale = [
      await plantTemp(file, dead), // the pointer's write
      await plantTemp(path.join(storeDir, 'migrated-from.json'), dead), // an import's record
      await plantTempFolder(storeDir, 'run_0123456789ab', dead), // a run's create
      await plantTempFolder(storeDir, weather.runId, await deadPid()), // a delete (renamed away)
      await plantTemp(path.join(runFolder, 'checkpoint.json'), dead), // a checkpoint
      await plantTemp(path.join(runFolder, 'run.json'), dead), // a status change
    ];
    const kept = [
      await plantTemp(file, live), // a process that is writing the file now
      await plantTemp(path.join(runFolder, 'checkpoint.json'), live),
      await plantTemp(path.join(base, 'notes.json'), dead), // another file's temp: not ours to remove
    ];

    const opened = await new StateFileStores().open(file);
    await opened.store.close?.();

    for (const temp of stale)
      expect({ temp, exists: await exists(temp) }).toEqual({ temp, exists: false });
    for (const temp of kept)
      expect({ temp, exists: await exists(temp) }).toEqual({ temp, exists: true });
    expect(await fs.readFile(file, 'utf8')).toBe(before.beside);
    const after = await snapshot(storeDir);
    for (const temp of kept) delete after[path.relative(storeDir, temp)];
    expect(after).toEqual(before.store);
    expect(opened.run.state.nodes.map((node) => node.message)).toEqual(
      weather.final.nodes.map((node) => node.message),
    );
  });

  it('loadState(file) of a state file cleans the same way', async () => {
    const base = await tempDir();
    const file = path.join(base, 'state.json');
    await storeWeather(new StateFileRunStore(file));
    const dead = await deadPid();
    const runFolder = path.join(stateFileStoreDir(file), weather.runId);
    const stale = [
      await plantTemp(file, dead),
      await plantTempFolder(stateFileStoreDir(file), 'run_0123456789ab', dead),
      await plantTemp(path.join(runFolder, 'checkpoint.json'), dead),
    ];
    expect((await loadState(file)).nodes).toHaveLength(weather.final.nodes.length);
    for (const temp of stale)
      expect({ temp, exists: await exists(temp) }).toEqual({ temp, exists: false });
  });

  it('a FileRunStore: list removes the dir’s leftovers, load a run folder’s; neither is ever listed', async () => {
    const dir = path.join(await tempDir(), 'runs');
    await storeWeather(new FileRunStore({ dir }));
    const dead = await deadPid();
    const runFolder = path.join(dir, weather.runId);
    const folderTemps = [
      await plantTempFolder(dir, 'run_0123456789ab', dead),
      await plantTemp(path.join(dir, 'run_0123456789ab'), dead),
    ];
    const runTemps = [
      await plantTemp(path.join(runFolder, 'checkpoint.json'), dead),
      await plantTemp(path.join(runFolder, 'run.json'), dead),
    ];
    const store = new FileRunStore({ dir });
    expect((await store.list()).map((row) => row.runId)).toEqual([weather.runId]);
    for (const temp of folderTemps) expect(await exists(temp)).toBe(false);
    expect((await store.load(weather.runId))?.state.nodes).toHaveLength(weather.final.nodes.length);
    for (const temp of runTemps) expect(await exists(temp)).toBe(false);
    expect((await fs.readdir(runFolder)).sort()).toEqual([
      'checkpoint.json',
      'journal.jsonl',
      'run.json',
    ]);
  });
});

describe('a run folder an older ideact left half-made (issue 27 item 9)', () => {
  it('a folder without run.json (a create cut short before it) is not listed, loads as no run, and create of its id replaces it', async () => {
    const dir = path.join(await tempDir(), 'runs');
    const leftover = path.join(dir, weather.runId);
    await fs.mkdir(leftover, { recursive: true });
    await fs.writeFile(path.join(leftover, 'checkpoint.json'), '{"version":1,"journalOff');
    const store = new FileRunStore({ dir });
    expect(await store.list()).toEqual([]);
    expect(await store.load(weather.runId)).toBeUndefined();
    await storeWeather(store);
    expect((await store.load(weather.runId))?.state.nodes).toHaveLength(weather.final.nodes.length);
    expect((await fs.readdir(dir)).sort()).toEqual([weather.runId]);
  });
});

describe('a run-folder file that is a directory is an InvalidAgentStateError naming it, never EISDIR (issue 27 item 9)', () => {
  const files = ['checkpoint.json', 'run.json', 'journal.jsonl'] as const;

  /** The weather run in a fresh store, with `name` replaced by a directory. */
  async function runWithDirectory(name: (typeof files)[number]) {
    const dir = path.join(await tempDir(), 'runs');
    await storeWeather(new FileRunStore({ dir }));
    const file = path.join(dir, weather.runId, name);
    await fs.rm(file);
    await fs.mkdir(file);
    await fs.writeFile(path.join(file, 'something.txt'), 'not a run file');
    return { dir, file };
  }

  /** Checks the error: typed, its code, the file it names, what to do, and no raw EISDIR. */
  function expectDirectoryError(error: unknown, file: string): void {
    expect(InvalidAgentStateError.isInstance(error)).toBe(true);
    const typed = error as InvalidAgentStateError;
    expect(typed.code).toBe('INVALID_AGENT_STATE');
    expect(typed.file).toBe(file);
    expect(typed.message).toContain(`"${file}"`);
    expect(typed.message).toContain(
      `it is a directory where the file ${path.basename(file)} belongs`,
    );
    expect(typed.message).toContain('move that directory away and put the file back');
    expect(typed.message).not.toMatch(/EISDIR/);
  }

  it.each(files)(
    '%s: store.load, agent.resume(runId) and a state file’s open name it',
    async (name) => {
      const { dir, file } = await runWithDirectory(name);
      const store = new FileRunStore({ dir });
      expectDirectoryError(await store.load(weather.runId).catch((error: unknown) => error), file);

      const agent = createAgent({ tools: [], provider: new ScriptedProvider([]), store });
      const resumed = await agent.resume(weather.runId).catch((error: unknown) => error);
      expectDirectoryError(resumed, file);
      await agent.dispose();

      // The same run as a state file's run.
      const base = await tempDir();
      const stateFile = path.join(base, 'state.json');
      await storeWeather(new StateFileRunStore(stateFile));
      const inStateFile = path.join(stateFileStoreDir(stateFile), weather.runId, name);
      await fs.rm(inStateFile);
      await fs.mkdir(inStateFile);
      expectDirectoryError(
        await new StateFileStores().open(stateFile).catch((error: unknown) => error),
        inStateFile,
      );
      expectDirectoryError(
        await loadState(stateFile).catch((error: unknown) => error),
        inStateFile,
      );
    },
  );

  it.each(files)(
    '%s: list still answers (a run without a readable run.json is left out)',
    async (name) => {
      const { dir } = await runWithDirectory(name);
      const rows = await new FileRunStore({ dir }).list();
      expect(rows.map((row) => row.runId)).toEqual(name === 'run.json' ? [] : [weather.runId]);
    },
  );
});
