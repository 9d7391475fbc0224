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
  /** Extra environment; provider variables and DEBUG are cleared unless given here. */
  env?: Record<string, string>;
  /** Called with the child as soon as it is spawned (e.g. to send SIGINT later). */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs `node dist/cli/main.js ...args` as a child process and collects its output and exit code. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliRun> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: run \`npm run build\` first (\`npm test\` does it).`);
  }
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'IDEACT_MODEL', 'DEBUG'])
    delete env[name];
  Object.assign(env, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
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
