import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadState } from '../../src/store/state-file-store';
import { FINAL_TURN, FIRST_TURN, killScenarioAgent } from './fixtures/kill-scenario';

const ROOT = path.resolve(__dirname, '../..');

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('crash and resume (R-LOOP-5)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-kill-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('R-LOOP-5 a child killed with SIGKILL mid-Actor resumes with no node lost and no completed Call re-run', async () => {
    const stateFile = path.join(directory, 'state.json');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'fixtures/kill-child.ts'), stateFile, directory],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    try {
      await waitFor(
        () => existsSync(path.join(directory, 'marker')) || child.exitCode !== null,
        'the marker',
      );
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    expect(stderr).toBe('');

    // What the crash left: the first two results durable, the Actor still pending.
    const crashed = await loadState(stateFile);
    expect(crashed.nextStep).toEqual({ module: 'actor', args: { nodeId: 1 } });
    expect(
      crashed.nodes
        .filter((node) => node.message.type === 'result')
        .map((node) => node.metadata.source?.callIndex),
    ).toEqual([0, 1]);

    const { agent } = killScenarioAgent(directory, [FINAL_TURN]);
    const resumed = await agent.resume(stateFile);

    const invocations = (await fs.readFile(path.join(directory, 'invocations.log'), 'utf8'))
      .trim()
      .split('\n');
    expect(invocations).toEqual(['a', 'b', 'c', 'c']); // c was cut off by the kill and ran again; a and b did not
    expect(resumed.state.nodes.map((node) => node.id)).toEqual(
      resumed.state.nodes.map((_node, index) => index),
    );
    expect(resumed.state.nodes.filter((node) => node.message.type === 'result')).toHaveLength(3);

    // Same final output and the same tree shape as a run that was never interrupted.
    const reference = killScenarioAgent(await fs.mkdtemp(path.join(directory, 'ref-')), [
      FIRST_TURN,
      FINAL_TURN,
    ]);
    const uninterrupted = await reference.agent.run({ task: 'Record a, b and c.' });
    expect(resumed.output).toBe(uninterrupted.output);
    expect(resumed.state.nodes.map((node) => node.message)).toEqual(
      uninterrupted.state.nodes.map((node) => node.message),
    );
    expect(await loadState(stateFile)).toEqual(resumed.state);
  });
});
