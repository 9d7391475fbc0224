import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadState, saveState } from '../../src/runtime/state-store';
import { createInitialState } from '../../src/runtime/loop/state-tree';
import { InvalidAgentStateError } from '../../src/errors/invalid-agent-state.error';

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
