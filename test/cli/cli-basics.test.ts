import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, runCli } from './run-cli';

/** The built `ideact` command: help on every command, usage errors and exit codes (docs/cli.md). */
describe('ideact (built CLI) basics', () => {
  it.each(['run', 'inspect', 'validate', 'codegen'])(
    '`ideact %s --help` prints its usage and exits 0',
    async (command) => {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: ideact ${command}`);
      expect(result.stderr).toBe('');
    },
  );

  it('`ideact --help` lists every command and the exit codes', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['run', 'inspect', 'validate', 'codegen'])
      expect(result.stdout).toContain(`  ${command} `);
    expect(result.stdout).toContain('130  interrupted');
  });

  it('`ideact --version` prints the package version', async () => {
    const { version } = JSON.parse(
      await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'),
    ) as { version: string };
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('no command is a usage error (exit 2) that shows the help on stderr', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: ideact');
    expect(result.stdout).toBe('');
  });

  it('an unknown option exits 2 with one clear line and no stack trace', async () => {
    const result = await runCli(['validate', 'x.json', '--nope']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("ideact: unknown option '--nope'");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown command exits 2', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('a bad option value (--provider) exits 2 naming the allowed choices', async () => {
    const result = await runCli(['run', 'x.json', '--provider', 'claude']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('openai, offline');
  });

  it('DEBUG=ideact adds the stack trace to errors', async () => {
    const quiet = await runCli(['inspect', 'missing-state.json']);
    const debug = await runCli(['inspect', 'missing-state.json'], { env: { DEBUG: 'ideact' } });
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).not.toMatch(/\n\s+at /);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});
