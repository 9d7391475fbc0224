import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ScriptedProvider } from 'ideact/testing';
import { reviewScript, runReview } from '../../examples/review/main';
import { terminalConfirm } from '../../examples/review/terminal-confirm';
import { stayOffline } from './capture-stdout';

stayOffline();

const ROOT = path.join(__dirname, '../..');

/** Runs `examples/review/main.ts` in a child process with `answers` piped to its stdin. */
function runInTerminal(
  answers: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const child = spawn(process.execPath, ['-r', 'ts-node/register', 'examples/review/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(answers.map((answer) => `${answer}\n`).join(''));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** An answer source for the hook, as readline would give it. */
function linesOf(answers: string[]): AsyncIterator<string> {
  return (async function* () {
    yield* answers;
  })();
}

describe('examples/review: approve, edit or reject each Call on stdin (R-LOOP-4)', () => {
  it('R-LOOP-4 piped answers: the approved call ran, the edited params were used, the reason reached the LLM', async () => {
    const { code, stdout, stderr } = await runInTerminal([
      'a',
      'e',
      '{"to": "beta@example.com"}',
      'r',
      'main is protected',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('provider: scripted replies (offline, not a model)');
    // Each Call was shown before it ran, and the piped answers are echoed.
    expect(stdout).toContain('sendEmail {"to":"customers@example.com"');
    expect(stdout).toContain(
      '[a]pprove / [e]dit / [r]eject? e\nnew params as JSON: {"to": "beta@example.com"}',
    );
    expect(stdout).toMatch(/sendEmail \{"to":"team@example\.com"[^\n]*\n {2}→ ran\n/);
    expect(stdout).toMatch(/sendEmail \{"to":"beta@example\.com"[^\n]*\n {2}→ ran as edited\n/);
    expect(stdout).toMatch(/deleteBranch \{"name":"main"\}\n {2}→ rejected\n/);
    // What really happened: the customers were never mailed, nothing was deleted.
    expect(stdout).toContain('outbox: team@example.com, beta@example.com\n');
    expect(stdout).toContain('deleted branches: (none)\n');
    // The LLM's final report quotes the reason it was given in the CALL_REJECTED result.
    const output = JSON.parse(
      stdout.slice(stdout.indexOf('output: ') + 'output: '.length),
    ) as unknown;
    expect(output).toEqual({
      done: ['mailed team@example.com', 'mailed beta@example.com'],
      refused: [{ tool: 'deleteBranch', reason: 'main is protected' }],
    });
  });

  it('R-LOOP-4 unclear answers are asked again; input that ends rejects the remaining calls', async () => {
    const prompts: string[] = [];
    const provider = new ScriptedProvider(reviewScript());
    const { result, chores } = await runReview({
      provider,
      confirm: terminalConfirm({
        lines: linesOf(['yes', 'e', 'not json', 'a']),
        write: (text) => prompts.push(text),
      }),
    });
    const transcript = prompts.join('');
    expect(transcript).toContain('  answer a, e or r\n');
    expect(transcript).toContain('  that is not a JSON object');
    expect(chores.outbox.map((mail) => mail.to)).toEqual(['team@example.com']);
    expect(result.output).toEqual({
      done: ['mailed team@example.com'],
      refused: [
        { tool: 'sendEmail', reason: 'no answer (the input ended)' },
        { tool: 'deleteBranch', reason: 'no answer (the input ended)' },
      ],
    });
    // The rejections went to the LLM as results before its final turn.
    const lastRequest = provider.requests
      .at(-1)
      ?.messages.map((message) => message.content)
      .join('\n');
    expect(lastRequest).toContain('Error CALL_REJECTED');
  });
});
