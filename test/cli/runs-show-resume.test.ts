import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRunStore, createAgent, vesselIdeaParts, type AgentResult, type Idea } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { startChatCompletionsServer } from '../support/chat-completions-server';
import { runCli, runPrintedCommand } from './run-cli';

/**
 * Issue 27 item 7: `ideact runs show` suggests a resume that works for the run it shows — the exact
 * command for a run whose agent came from an Idea file (`ideact run idea.json --state s.json`), the
 * code API for a run of an agent defined in code — and each suggestion, run as printed, resumes it.
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

const transfer = { _tool: 'transfer', amount: 50, _output: { done: true } };

let workDir: string;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-runs-show-'));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** The bank Idea with a transfer that needs no approval. */
function payIdea(): Idea {
  const idea = structuredClone(BANK) as unknown as {
    schema: { properties: { calls: { items: { anyOf: Array<Record<string, unknown>> } } } };
  };
  delete idea.schema.properties.calls.items.anyOf[0]!.needsApproval;
  return idea as unknown as Idea;
}

/** The one line of `text` starting with `prefix`, without the prefix (fails the test when absent). */
function lineAfter(text: string, prefix: string): string {
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  if (line === undefined) throw new Error(`no line starting with "${prefix}" in:\n${text}`);
  return line.slice(prefix.length);
}

describe('ideact runs show: a resume suggestion that works for the run', () => {
  it('(a) a run of `ideact run idea.json --state s.json`: the exact `runs resume` command, which resumes it as printed', async () => {
    await fs.writeFile(path.join(workDir, 'bank.json'), JSON.stringify(BANK, null, 2));
    const server = await startChatCompletionsServer([
      { json: { calls: [transfer], output: null } },
    ]);
    try {
      const started = await runCli(
        ['run', 'bank.json', '--provider', 'openai', '--state', 's.json'],
        { cwd: workDir, env: { OPENAI_BASE_URL: server.baseURL } },
      );
      expect(started.stderr).toContain('the run ended without an output (awaiting_approval)');
      expect(started.code).toBe(1);
    } finally {
      await server.close();
    }
    const listed = await runCli(['runs', 'list', '--dir', 's.json.run', '--json'], {
      cwd: workDir,
    });
    const [run] = JSON.parse(listed.stdout) as Array<{ runId: string; status: string }>;
    expect(run).toMatchObject({ status: 'awaiting_approval' });
    const runId = run!.runId;

    // --json: the Call awaiting approval, where the run came from and the suggestion, for tools.
    const json = await runCli(['runs', 'show', runId, '--dir', 's.json.run', '--json'], {
      cwd: workDir,
    });
    const report = JSON.parse(json.stdout) as { interruptions: Array<{ callId: string }> };
    const callId = report.interruptions[0]!.callId;
    const shown = await runCli(['runs', 'show', runId, '--dir', 's.json.run'], { cwd: workDir });
    expect(shown.code).toBe(0);
    const decide = lineAfter(shown.stdout, 'decide with: ');
    const command = decide.replace(/ \(or --reject .*\)$/, '');
    expect(command).toBe(
      `ideact runs resume ${runId} --dir s.json.run --idea bank.json --approve ${callId}`,
    );
    expect(decide).toContain(`(or --reject ${callId}=reason instead of --approve)`);
    expect(report).toMatchObject({
      origin: { idea: path.join(await fs.realpath(workDir), 'bank.json') },
      resume: { kind: 'command', text: command, approves: callId },
    });

    // Run as printed (no provider configured: the CLI's offline stand-in answers the next turn).
    const resumed = await runPrintedCommand(command, { cwd: workDir });
    expect(resumed.stderr).not.toContain('ideact: Error');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('status    completed');
    // The approved transfer ran: its result is in the state the state file names.
    const inspected = await runCli(['inspect', 's.json'], { cwd: workDir });
    expect(inspected.stdout).toMatch(/\[actor\] result transfer: ok \{"done":true\}/);
    // A completed run has nothing to resume.
    const after = await runCli(['runs', 'show', runId, '--dir', 's.json.run'], { cwd: workDir });
    expect(after.stdout).not.toMatch(/resume with|decide with|agent\.resume/);
  });

  it('(a) without --state: the state `ideact run` saves when the run stops records the Idea too', async () => {
    await fs.writeFile(path.join(workDir, 'bank.json'), JSON.stringify(BANK, null, 2));
    const server = await startChatCompletionsServer([
      { json: { calls: [transfer], output: null } },
    ]);
    try {
      const started = await runCli(['run', 'bank.json', '--provider', 'openai'], {
        cwd: workDir,
        env: { OPENAI_BASE_URL: server.baseURL },
      });
      expect(started.stderr).toContain('state saved to bank.state.json');
    } finally {
      await server.close();
    }
    const dir = 'bank.state.json.run';
    const listed = await runCli(['runs', 'list', '--dir', dir, '--json'], { cwd: workDir });
    const runId = (JSON.parse(listed.stdout) as Array<{ runId: string }>)[0]!.runId;
    const shown = await runCli(['runs', 'show', runId, '--dir', dir, '--json'], { cwd: workDir });
    const report = JSON.parse(shown.stdout) as {
      resume: { text: string };
      interruptions: Array<{ callId: string }>;
    };
    expect(report.resume.text).toBe(
      `ideact runs resume ${runId} --dir ${dir} --idea bank.json --approve ${report.interruptions[0]!.callId}`,
    );
    const resumed = await runPrintedCommand(report.resume.text, { cwd: workDir });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('status    completed');
  });

  it('(a) a run stopped by a limit: `resume with:` the command, which continues it as printed', async () => {
    await fs.writeFile(path.join(workDir, 'bank.json'), JSON.stringify(BANK, null, 2));
    const server = await startChatCompletionsServer([
      { json: { calls: [transfer], output: null } },
    ]);
    // An Idea whose tool needs no approval, stopped by --max-turns 1 after its first turn.
    await fs.mkdir(path.join(workDir, 'ideas'));
    await fs.writeFile(path.join(workDir, 'ideas', 'pay.json'), JSON.stringify(payIdea()));
    try {
      const started = await runCli(
        [
          'run',
          'ideas/pay.json',
          '--provider',
          'openai',
          '--state',
          'pay.json',
          '--max-turns',
          '1',
        ],
        { cwd: workDir, env: { OPENAI_BASE_URL: server.baseURL } },
      );
      expect(started.stderr).toContain('the run ended without an output (max_turns)');
    } finally {
      await server.close();
    }
    const listed = await runCli(['runs', 'list', '--dir', 'pay.json.run', '--json'], {
      cwd: workDir,
    });
    const runId = (JSON.parse(listed.stdout) as Array<{ runId: string }>)[0]!.runId;
    const shown = await runCli(['runs', 'show', runId, '--dir', 'pay.json.run'], { cwd: workDir });
    const command = lineAfter(shown.stdout, 'resume with: ');
    // Its turn limit is raised (as many turns again), or it would stop at once.
    expect(command).toBe(
      `ideact runs resume ${runId} --dir pay.json.run --idea ideas/pay.json --max-turns 2`,
    );

    const resumed = await runPrintedCommand(command, { cwd: workDir });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('status    completed');
  });

  it('`ideact run` itself, stopped by --max-turns, prints a continue command that continues the run as printed', async () => {
    await fs.mkdir(path.join(workDir, 'ideas'));
    await fs.writeFile(path.join(workDir, 'ideas', 'pay.json'), JSON.stringify(payIdea()));
    const server = await startChatCompletionsServer([
      { json: { calls: [transfer], output: null } },
    ]);
    let stderr: string;
    try {
      const started = await runCli(
        [
          'run',
          'ideas/pay.json',
          '--provider',
          'openai',
          '--state',
          'pay.json',
          '--max-turns',
          '1',
        ],
        { cwd: workDir, env: { OPENAI_BASE_URL: server.baseURL } },
      );
      expect(started.code).toBe(1);
      stderr = started.stderr;
    } finally {
      await server.close();
    }
    const command = /continue with: (ideact .*)$/m.exec(stderr)?.[1];
    expect(command).toBe('ideact run ideas/pay.json --resume pay.json --max-turns 2');
    const continued = await runPrintedCommand(command!, { cwd: workDir });
    expect(continued.stderr).toMatch(/stopped: (output|no_calls) after 2 turn\(s\)/);
    expect(continued.code).toBe(0);
  });

  it('(b) a run of an agent defined in code, in a FileRunStore: the code API, not `--idea`, which resumes it as printed', async () => {
    const dir = path.join(workDir, '.ideact', 'runs');
    const parts = vesselIdeaParts(BANK);
    const store = new FileRunStore({ dir });
    const first = createAgent({
      tools: parts?.tools ?? [],
      provider: new ScriptedProvider([{ calls: [transfer], output: null }]),
      store,
    });
    let stopped: AgentResult;
    try {
      stopped = await first.run({ context: parts?.context, task: 'Pay the rent.' });
    } finally {
      await store.close();
      await first.dispose();
    }
    expect(stopped.stopReason).toBe('awaiting_approval');
    const callId = stopped.interruptions?.[0]?.callId as string;

    const shown = await runCli(['runs', 'show', stopped.runId], { cwd: workDir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain('--idea');
    expect(shown.stdout).not.toContain('ideact runs resume');
    const lines = shown.stdout.split('\n');
    const header = lines.indexOf(
      'decide from the code that defines its agent (the run was not started from an Idea file):',
    );
    expect(header).toBeGreaterThan(0);
    const code = lines[header + 1]!.trim();
    expect(code).toBe(
      `await agent.resume('${stopped.runId}', { store: new FileRunStore({ dir: '${dir}' }), decisions: { '${callId}': { approve: true } } })`,
    );

    // Run as printed, in "the code that defines its agent": the same Tools, a model for the next turn.
    const provider = new ScriptedProvider([{ calls: [], output: 'paid' }]);
    const agent = createAgent({ tools: parts?.tools ?? [], provider });
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...parameters: string[]
    ) => (...values: unknown[]) => Promise<AgentResult>;
    const opened: FileRunStore[] = [];
    class TrackedFileRunStore extends FileRunStore {
      constructor(options: ConstructorParameters<typeof FileRunStore>[0]) {
        super(options);
        opened.push(this);
      }
    }
    let result: AgentResult;
    try {
      result = await new AsyncFunction('agent', 'FileRunStore', `return ${code};`)(
        agent,
        TrackedFileRunStore,
      );
    } finally {
      for (const each of opened) await each.close();
      await agent.dispose();
    }
    expect(result).toMatchObject({ runId: stopped.runId, stopReason: 'output', output: 'paid' });
    expect(result.failedCalls).toEqual([]);
    const after = await runCli(['runs', 'show', stopped.runId, '--json'], { cwd: workDir });
    expect(JSON.parse(after.stdout)).toMatchObject({ status: 'completed', output: 'paid' });
    expect(JSON.parse(after.stdout)).not.toHaveProperty('resume');
  });
});
