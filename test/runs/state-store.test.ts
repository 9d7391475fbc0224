import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadState, saveState } from '../../src/runs/state-store';
import { createInitialState } from '../../src/runs/state-tree';
import { InvalidAgentStateError } from '../../src/errors/invalid-agent-state.error';
import { MAX_JSON_DEPTH, createAgent, loadState as loadStateFile } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

describe('state store (R-LOOP-5)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-store-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('R-LOOP-5 round-trips a state and leaves no temp files behind', async () => {
    const file = path.join(directory, 'run.json');
    const state = createInitialState({ task: 'hello', limits: { maxTurns: 2 } });
    await saveState(file, state);
    state.nodes[0]!.metadata.note = 'changed';
    await saveState(file, state);
    expect(await loadState(file)).toEqual(state);
    expect(await fs.readdir(directory)).toEqual(['run.json']);
  });

  it('R-LOOP-5 a failed write keeps the last good state', async () => {
    const file = path.join(directory, 'run.json');
    const state = createInitialState({ task: 'good' });
    await saveState(file, state);
    const cyclic = createInitialState({ task: 'bad' }) as unknown as Record<string, unknown>;
    cyclic.self = cyclic;
    await expect(saveState(file, cyclic as never)).rejects.toThrow();
    expect((await loadState(file)).task).toBe('good');
  });

  it('names the file for a missing, torn or foreign state file', async () => {
    const file = path.join(directory, 'broken.json');
    await expect(loadState(file)).rejects.toThrow(InvalidAgentStateError);
    await fs.writeFile(file, '{"version": 1, "nodes": [');
    await expect(loadState(file)).rejects.toThrow(/broken\.json.*not valid JSON/);
    await fs.writeFile(file, '{"version": 0}');
    await expect(loadState(file)).rejects.toThrow(/broken\.json.*\/version/);
  });
});

describe('state files: missing directories, stale temp files, bad content (issue 14)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-store14-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  /** A pid that belonged to a process which has exited (so `kill(pid, 0)` reports ESRCH). */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    return child.pid!;
  }

  function deepJson(levels: number): string {
    return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  }

  function rejection(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  it('R-LOOP-5 agent.run({ stateFile }) creates the missing directory of the state file (no ENOENT)', async () => {
    const stateFile = path.join(directory, 'runs', 'nested', 'oslo.json');
    const agent = createAgent({
      tools: [],
      provider: new ScriptedProvider([{ calls: [], output: 'snow' }]),
    });
    const result = await agent.run({ task: 'Weather in Oslo?', stateFile });
    expect(result.stopReason).toBe('output');
    expect((await loadStateFile(stateFile)).nextStep).toEqual({
      module: 'done',
      args: { reason: 'output', output: 'snow' },
    });
    // The file names the run; the run is in the one-run store beside it (issue 18).
    expect((await fs.readdir(path.dirname(stateFile))).sort()).toEqual([
      'oslo.json',
      'oslo.json.run',
    ]);
  });

  it('R-LOOP-5 saveState and loadState remove temp files that a killed process left beside the state file', async () => {
    const dead = await deadPid();
    const file = path.join(directory, 'run.json');
    const stale = path.join(directory, `.run.json.${dead}.0badf00d.tmp`);
    const live = path.join(directory, `.run.json.${process.ppid}.0badf00d.tmp`);
    const other = path.join(directory, `.other.json.${dead}.0badf00d.tmp`);
    for (const temp of [stale, live, other]) await fs.writeFile(temp, '{"version": 1, "nod');
    await saveState(file, createInitialState({ task: 'hello' }));
    expect((await fs.readdir(directory)).sort()).toEqual(
      [path.basename(live), path.basename(other), 'run.json'].sort(),
    );

    const loaded = path.join(directory, 'loaded.json');
    await saveState(path.join(directory, 'copy.json'), createInitialState({ task: 'x' }));
    await fs.copyFile(path.join(directory, 'copy.json'), loaded);
    const staleOfLoaded = path.join(directory, `.loaded.json.${dead}.12ab.tmp`);
    await fs.writeFile(staleOfLoaded, '');
    await loadState(loaded);
    expect(await fs.readdir(directory)).not.toContain(path.basename(staleOfLoaded));
  });

  it('loadState rejects a node with an unknown message type, naming the file and the JSON path', async () => {
    const file = path.join(directory, 'edited.json');
    const state = createInitialState({ task: 'hello' });
    (state.nodes[0]!.message as unknown as Record<string, unknown>).type = 'bogus';
    await fs.writeFile(file, JSON.stringify(state));
    const error = await rejection(loadState(file));
    expect(InvalidAgentStateError.isInstance(error)).toBe(true);
    const typed = error as InvalidAgentStateError;
    expect(typed.code).toBe('INVALID_AGENT_STATE');
    expect(typed.file).toBe(file);
    expect(typed.jsonPath).toBe('/nodes/0/message/type');
    expect(typed.message).toContain('edited.json');
    expect(typed.message).toContain('unknown message type "bogus"');
  });

  it('loadState rejects a message missing its required field (a text without text)', async () => {
    const file = path.join(directory, 'edited.json');
    const state = createInitialState({ task: 'hello' });
    delete (state.nodes[0]!.message as unknown as Record<string, unknown>).text;
    await fs.writeFile(file, JSON.stringify(state));
    const error = (await rejection(loadState(file))) as InvalidAgentStateError;
    expect(InvalidAgentStateError.isInstance(error)).toBe(true);
    expect(error.jsonPath).toBe('/nodes/0/message/text');
  });

  it('a state file nested 3,000 levels deep fails with InvalidAgentStateError naming the file, not a RangeError', async () => {
    const file = path.join(directory, 'deep.json');
    const state = createInitialState({ task: 'hello' });
    const text = JSON.stringify(state).replace(
      /"metadata":\{"module":"input"\}/,
      `"metadata":{"module":"input","note":${deepJson(3000)}}`,
    );
    await fs.writeFile(file, text);
    const error = (await rejection(loadState(file))) as InvalidAgentStateError;
    expect(InvalidAgentStateError.isInstance(error)).toBe(true);
    expect(error.message).toContain('deep.json');
    expect(error.message).toContain(`MAX_JSON_DEPTH = ${MAX_JSON_DEPTH}`);
    expect(error.jsonPath).toMatch(/^\/nodes\/0\/metadata\/note\/a\/a\/.*more.*\/a$/);
  });

  it('saving a state that holds data nested 3,000 levels deep fails with InvalidAgentStateError, not a RangeError', async () => {
    const file = path.join(directory, 'deep.json');
    const state = createInitialState({ task: 'hello' });
    state.nodes[0]!.metadata.note = JSON.parse(deepJson(3000)) as unknown;
    const error = (await rejection(saveState(file, state))) as InvalidAgentStateError;
    expect(InvalidAgentStateError.isInstance(error)).toBe(true);
    expect(error.file).toBe(file);
    await expect(fs.access(file)).rejects.toThrow();
  });
});
