import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRunStore, RUN_STATUSES, createAgent, vesselIdeaParts, type Idea } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { runCli } from './run-cli';

/**
 * `ideact runs list | show | cancel | resume` on the FileRunStore (issue 18 item 4), end to end
 * through the built CLI: runs are made by the library in this process, then inspected, cancelled
 * and continued by the CLI in another one (the database side is in test/engine/worker.test.ts).
 */
const BANK: Idea = {
  context: [{ type: 'system', text: 'You move money when asked.' }],
  schema: {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              description: 'Moves money; a person approves each transfer.',
              needsApproval: true,
              properties: {
                _tool: { const: 'transfer' },
                amount: { type: 'number' },
                _output: {
                  type: 'object',
                  properties: { done: { type: 'boolean' } },
                  required: ['done'],
                },
              },
              required: ['_tool', 'amount', '_output'],
            },
          ],
        },
      },
      output: { anyOf: [{ type: 'null' }, { type: 'string' }] },
    },
    required: ['calls', 'output'],
  },
} as Idea;

let workDir: string;
let ideaFile: string;
let dir: string;

beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-runs-'));
  ideaFile = path.join(workDir, 'bank.json');
  await fs.writeFile(ideaFile, JSON.stringify(BANK, null, 2));
  dir = path.join(workDir, '.ideact', 'runs');
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** A bank run in the FileRunStore under `dir`, run by the library with a scripted model. */
async function bankRun(script: unknown[], options: { maxTurns?: number } = {}) {
  const parts = vesselIdeaParts(BANK);
  const store = new FileRunStore({ dir });
  const agent = createAgent({
    tools: parts?.tools ?? [],
    provider: new ScriptedProvider(script),
    store,
  });
  try {
    return await agent.run({ context: parts?.context, task: 'Pay the rent.', ...options });
  } finally {
    await store.close();
    await agent.dispose();
  }
}

const transfer = { _tool: 'transfer', amount: 50, _output: { done: true } };

describe('ideact runs on the FileRunStore (.ideact/runs under the working directory)', () => {
  it('list and show a run awaiting approval (text and --json); resume --approve runs the Call here and completes it', async () => {
    const stopped = await bankRun([{ calls: [transfer], output: null }]);
    expect(stopped.stopReason).toBe('awaiting_approval');
    const callId = stopped.interruptions?.[0]?.callId as string;

    const listed = await runCli(['runs', 'list', '--json'], { cwd: workDir });
    expect(listed.stderr).toBe('');
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        runId: stopped.runId,
        status: 'awaiting_approval',
        task: 'Pay the rent.',
      }),
    ]);
    const table = await runCli(['runs', 'list'], { cwd: workDir });
    expect(table.stdout.split('\n')[0]).toMatch(/^RUN +STATUS +STOPPED +UPDATED +TASK$/);
    expect(table.stdout).toContain(`${stopped.runId}  awaiting_approval  awaiting_approval`);

    const shown = await runCli(['runs', 'show', stopped.runId, '--dir', dir]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('status    awaiting_approval\n');
    expect(shown.stdout).toContain('task      Pay the rent.\n');
    expect(shown.stdout).toContain(`  ${callId} transfer {"amount":50}`);
    expect(shown.stdout).toMatch(/usage +\d+ step\(s\), 1 turn\(s\)/);

    const resumed = await runCli(
      [
        'runs',
        'resume',
        stopped.runId,
        '--idea',
        ideaFile,
        '--provider',
        'offline',
        '--approve',
        callId,
        '--json',
      ],
      { cwd: workDir },
    );
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ runId: stopped.runId, status: 'completed', failedCalls: [] });
    expect(report.interruptions).toBeUndefined();

    // The approved Call's result is in the stored state.
    const store = new FileRunStore({ dir });
    const stored = await store.load(stopped.runId);
    await store.close();
    expect(
      stored?.state.nodes.find((node) => node.metadata.source !== undefined)?.message,
    ).toMatchObject({ type: 'result', output: { done: true } });
  });

  it('cancel marks a stopped run cancelled; resume continues it (raised --max-turns); a completed run cannot be cancelled (RUN_FINISHED)', async () => {
    const stopped = await bankRun([], { maxTurns: 0 });
    expect(stopped.stopReason).toBe('max_turns');

    const cancelled = await runCli(['runs', 'cancel', stopped.runId, '--dir', dir]);
    expect(cancelled).toMatchObject({
      code: 0,
      stdout: `cancelled ${stopped.runId}\n`,
      stderr: '',
    });
    const shown = await runCli(['runs', 'show', stopped.runId, '--dir', dir, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      status: 'cancelled',
      stopReason: 'max_turns',
    });
    const onlyCancelled = await runCli([
      'runs',
      'list',
      '--dir',
      dir,
      '--status',
      'cancelled',
      '--json',
    ]);
    expect((JSON.parse(onlyCancelled.stdout) as unknown[]).length).toBe(1);

    const resumed = await runCli(
      [
        'runs',
        'resume',
        stopped.runId,
        '--dir',
        dir,
        '--idea',
        ideaFile,
        '--provider',
        'offline',
        '--max-turns',
        '3',
      ],
      { cwd: workDir },
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('status    completed\n');

    const again = await runCli(['runs', 'cancel', stopped.runId, '--dir', dir]);
    expect(again.code).toBe(2); // a finished run is bad input, not a failed run
    expect(again.stderr).toMatch(new RegExp(`^ideact: Run "${stopped.runId}" has completed`));
  });

  it('show of an unknown run fails with one clear line (exit 2); a bad --status is a usage error (exit 2)', async () => {
    const missing = await runCli(['runs', 'show', 'run_nope', '--dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ideact: Run "run_nope" is not in the store/);
    const status = await runCli(['runs', 'list', '--dir', dir, '--status', 'done']);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/^ideact: --status: unknown status "done"/);
    // Issue 27 item 11: the statuses it offers are the store's one list.
    expect(status.stderr).toContain(`Pass one of: ${RUN_STATUSES.join(', ')}.`);
  });

  it('show and resume of a run whose checkpoint.json is a directory fail with one line naming the file, never EISDIR (issue 27 item 9)', async () => {
    const stopped = await bankRun([{ calls: [transfer], output: null }]);
    const checkpoint = path.join(dir, stopped.runId, 'checkpoint.json');
    await fs.rm(checkpoint);
    await fs.mkdir(checkpoint);
    const shown = await runCli(['runs', 'show', stopped.runId, '--dir', dir]);
    const resumed = await runCli(
      ['runs', 'resume', stopped.runId, '--dir', dir, '--idea', ideaFile, '--provider', 'offline'],
      { cwd: workDir },
    );
    for (const result of [shown, resumed]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^ideact: Agent state file "${checkpoint.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is invalid at \\(root\\): it is a directory where the file checkpoint.json belongs`,
        ),
      );
      expect(result.stderr).not.toContain('EISDIR');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
