import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { RunExistsError } from '../errors/run-exists.error';
import type { AgentState } from '../runs/agent-state';
import type {
  JournalEntry,
  RunFilter,
  RunHeader,
  RunOrigin,
  RunStore,
  RunSummary,
  StoredRun,
} from '../runs/run-store';
import type { OpenedStateFile, StateFiles } from '../runs/state-files';
import { readStateFileText } from '../runs/state-store';
import { readIfExists, removeStaleTempFiles, writeJsonAtomic } from './atomic-file';
import { FileRunStore } from './file-run-store';
import { importState } from './import-state';
import {
  parseStateFileText,
  STATE_FILE_FORMAT,
  type StateFileContent,
  type StateFilePointer,
} from './state-file-content';

/** The folder of a state file's one-run store: `<file>.run` beside the file (`run.json` → `run.json.run/`). */
export function stateFileStoreDir(file: string): string {
  return `${path.resolve(file)}.run`;
}

/**
 * The run store a `stateFile` stands for (issue 18): a FileRunStore in `<file>.run/` holding one
 * top-level run (plus its nested runs). Creating a top-level run replaces the one there before (as a
 * state file was overwritten by a new run): the new run is created, the pointer in `file` is
 * rewritten to name it (atomically: the commit point), then the old run is removed, so a kill at any
 * moment leaves `file` naming a whole run (issue 27 item 9).
 */
export class StateFileRunStore implements RunStore {
  /** The FileRunStore in `dir` (default `<file>.run/`). */
  readonly files: FileRunStore;

  constructor(
    readonly file: string,
    dir: string = stateFileStoreDir(file),
  ) {
    this.files = new FileRunStore({ dir });
  }

  /**
   * Replaces the file's run by this one (a nested run is only added): creates it, points `file` at
   * it, then removes the run the file named before. Temp files a killed write left beside `file`
   * are removed first.
   */
  async create(header: RunHeader, state: AgentState): Promise<void> {
    if (header.parentRunId !== undefined) return this.files.create(header, state);
    await removeTempsBeside(this.file);
    await createReplacing(this, () => this.files.create(header, state));
    await writeStateFilePointer(this.file, header.runId);
    await this.keepOnly(header.runId);
  }

  /**
   * Removes every run the store holds (nested ones too, and runs an interrupted import left) and
   * the record of an import, making room for a new one.
   */
  async replaceRun(): Promise<void> {
    await this.keepOnly(undefined);
  }

  /**
   * Removes every run but `runId` and the runs nested in it (all of them when undefined), and the
   * record of an import (once `file` is a pointer, that record is stale). @internal
   */
  async keepOnly(runId: string | undefined): Promise<void> {
    await fs.rm(path.join(this.files.dir, MIGRATION_FILE), { force: true });
    const rows = await this.files.list();
    const children = new Map<string, string[]>();
    for (const row of rows) {
      if (row.parentRunId === undefined) continue;
      children.set(row.parentRunId, [...(children.get(row.parentRunId) ?? []), row.runId]);
    }
    const kept = new Set<string>(runId === undefined ? [] : [runId]);
    for (const id of kept) for (const child of children.get(id) ?? []) kept.add(child);
    for (const row of rows) {
      if (!kept.has(row.runId)) await this.files.delete(row.runId);
    }
  }

  append(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    return this.files.append(runId, entries);
  }

  flush(): Promise<void> {
    return this.files.flush();
  }

  load(runId: string): Promise<StoredRun | undefined> {
    return this.files.load(runId);
  }

  list(filter?: RunFilter): Promise<RunSummary[]> {
    return this.files.list(filter);
  }

  delete(runId: string): Promise<void> {
    return this.files.delete(runId);
  }

  close(): Promise<void> {
    return this.files.close();
  }
}

/**
 * The state files of `createAgent` agents (issue 18): `stateFile` runs are stored in a
 * {@link StateFileRunStore}; `agent.resume(file)` opens the run a pointer names, or imports an older
 * whole-state file into `<file>.run/` once (a warning `IDEACT_STATE_FILE_MIGRATED` says so; the old
 * file is left as it was; `migrated-from.json` records its SHA-256, so a later resume finds the
 * imported run, and an edited file is imported again).
 */
export class StateFileStores implements StateFiles {
  storeFor(file: string): RunStore {
    return new StateFileRunStore(file);
  }

  async open(file: string): Promise<OpenedStateFile> {
    const content = await readStateFileContent(file);
    if (content.kind === 'pointer') {
      const store = new StateFileRunStore(file, pointedDir(file, content.pointer));
      return { store, run: await loadPointedRun(file, content.pointer, store.files) };
    }
    const store = new StateFileRunStore(file);
    const imported = await importedRun(store.files, content);
    if (imported !== undefined) return { store, run: imported };
    // First resume of this older file (or of an edit of it): import it, replacing what was there.
    const runId = content.state.runId ?? `migrated-${content.sha256.slice(0, 24)}`;
    await store.replaceRun();
    await importState(store.files, content.state, { runId });
    const migration: MigrationRecord = {
      file: path.basename(file),
      sha256: content.sha256,
      runId,
      importedAt: new Date().toISOString(),
    };
    await writeJsonAtomic(path.join(store.files.dir, MIGRATION_FILE), migration);
    const run = await store.files.load(runId);
    if (run === undefined) throw missingRun(file, runId, store.files.dir);
    process.emitWarning(
      `ideact: "${file}" is a state file of the older format (the whole state); it was imported into the run store ${store.files.dir} as run ${runId}, where the run goes on (one journal append per step). The file itself was left as it was.`,
      { code: 'IDEACT_STATE_FILE_MIGRATED' },
    );
    return { store, run };
  }
}

/**
 * The latest state of the run a state file names, without writing anything: the pointed run, or for
 * an older whole-state file the run it was imported into (else the file's own state). Checked.
 */
export async function loadState(file: string): Promise<AgentState> {
  const content = await readStateFileContent(file);
  if (content.kind === 'pointer') {
    const pointed = new FileRunStore({ dir: pointedDir(file, content.pointer) });
    return (await loadPointedRun(file, content.pointer, pointed)).state;
  }
  const imported = await importedRun(new FileRunStore({ dir: stateFileStoreDir(file) }), content);
  return imported?.state ?? content.state;
}

/**
 * Stores a whole state under `file` as a one-run store plus the pointer (the CLI's state on Ctrl-C),
 * replacing the run the file named. Resolves to the run id. `origin`: the Idea the run's agent came
 * from, kept in the run's header (`RunHeader.origin`).
 */
export async function saveStateFile(
  file: string,
  state: AgentState,
  options: { origin?: RunOrigin } = {},
): Promise<string> {
  const store = new StateFileRunStore(file);
  try {
    await removeTempsBeside(file);
    const runId = await createReplacing(store, () =>
      importState(
        store.files,
        state,
        options.origin === undefined ? {} : { origin: options.origin },
      ),
    );
    await writeStateFilePointer(file, runId);
    await store.keepOnly(runId);
    return runId;
  } finally {
    await store.close();
  }
}

/**
 * Runs `create` (a new run in `store`); when an id it uses is taken (the same run saved again), the
 * runs there go first and `create` runs again. Only then can a kill leave `file` naming a run that
 * is gone (an InvalidAgentStateError that says so), never a half-made one.
 */
async function createReplacing<T>(store: StateFileRunStore, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!RunExistsError.isInstance(error)) throw error;
    await store.replaceRun();
    return create();
  }
}

/** Removes the temp files a killed atomic write of `file` left beside it (their pid is gone). */
async function removeTempsBeside(file: string): Promise<void> {
  const target = path.resolve(file);
  await removeStaleTempFiles(path.dirname(target), path.basename(target));
}

/**
 * Reads and parses a state file (either format); an InvalidAgentStateError naming the file
 * otherwise. Temp files a killed write of the file left beside it are removed.
 */
async function readStateFileContent(file: string): Promise<StateFileContent> {
  const text = await readStateFileText(file);
  await removeTempsBeside(file);
  return parseStateFileText(text, file);
}

/** The name of the record of an import in `<file>.run/` (no run id has a dot, so runs never clash). */
const MIGRATION_FILE = 'migrated-from.json';

/** What `<file>.run/migrated-from.json` records: which text of the older file became which run. */
interface MigrationRecord {
  file: string;
  /** SHA-256 of the older file's text: an edited file is imported again. */
  sha256: string;
  runId: string;
  importedAt: string;
}

/** The run an older state file was imported into, when this exact text was imported before. */
async function importedRun(
  files: FileRunStore,
  content: Extract<StateFileContent, { kind: 'state' }>,
): Promise<StoredRun | undefined> {
  const text = await readIfExists(path.join(files.dir, MIGRATION_FILE));
  if (text === undefined) return undefined;
  let record: Partial<MigrationRecord>;
  try {
    record = JSON.parse(text) as Partial<MigrationRecord>;
  } catch {
    return undefined; // a torn record: import again
  }
  if (record.sha256 !== content.sha256 || typeof record.runId !== 'string') return undefined;
  return files.load(record.runId);
}

/** The store folder a pointer names (relative to the file's folder, so a moved pair still works). */
function pointedDir(file: string, pointer: StateFilePointer): string {
  return path.resolve(path.dirname(path.resolve(file)), pointer.store);
}

async function loadPointedRun(
  file: string,
  pointer: StateFilePointer,
  files: FileRunStore,
): Promise<StoredRun> {
  const run = await files.load(pointer.runId);
  if (run === undefined) throw missingRun(file, pointer.runId, files.dir);
  return run;
}

function missingRun(file: string, runId: string, dir: string): InvalidAgentStateError {
  return new InvalidAgentStateError({
    file,
    jsonPath: '/runId',
    reason: `names run "${runId}", which is not in the run store ${dir} (restore that folder, or start a new run)`,
  });
}

async function writeStateFilePointer(file: string, runId: string): Promise<void> {
  const pointer: StateFilePointer = {
    format: STATE_FILE_FORMAT,
    version: 1,
    store: path.basename(stateFileStoreDir(file)),
    runId,
  };
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeJsonAtomic(path.resolve(file), pointer);
}
