import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** Repository root; the CLI under test is the BUILT one (`npm test` builds first). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** The built CLI entry point (package.json `bin`). */
export const CLI = path.join(REPO_ROOT, 'dist', 'cli', 'main.js');

/** What a CLI run produced. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Working directory (default: the repo root). */
  cwd?: string;
  /** Extra environment; provider variables (OpenAI's, Anthropic's, Google's) and DEBUG are cleared unless given here. */
  env?: Record<string, string>;
  /** Called with the child as soon as it is spawned (e.g. to send SIGINT later). */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs `node dist/cli/main.js ...args` as a child process and collects its output and exit code. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliRun> {
  return runProcess(process.execPath, [CLI, ...args], options);
}

function runProcess(command: string, args: string[], options: RunCliOptions): Promise<CliRun> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: run \`npm run build\` first (\`npm test\` does it).`);
  }
  const env: Record<string, string | undefined> = { ...process.env };
  const cleared = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'IDEACT_MODEL', 'DEBUG'];
  // The AI SDK packages' own variables too (issue 30): a developer's key never reaches a test.
  cleared.push('ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GOOGLE_GENERATIVE_AI_API_KEY');
  cleared.push('GOOGLE_GENERATIVE_AI_BASE_URL');
  for (const name of cleared) delete env[name];
  Object.assign(env, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.onSpawn?.(child);
  });
}

/**
 * Runs a command line the CLI printed (`ideact runs resume …`) as a user would paste it into a shell:
 * through `sh -c`, with the leading `ideact` standing for the built CLI and `extraArgs` appended.
 */
export function runPrintedCommand(
  line: string,
  options: RunCliOptions & { extraArgs?: string[] } = {},
): Promise<CliRun> {
  if (!line.startsWith('ideact ')) throw new Error(`not an ideact command line: ${line}`);
  const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
  const script = [
    `${quote(process.execPath)} ${quote(CLI)} ${line.slice('ideact '.length)}`,
    ...(options.extraArgs ?? []).map(quote),
  ].join(' ');
  return runProcess('sh', ['-c', script], options);
}
