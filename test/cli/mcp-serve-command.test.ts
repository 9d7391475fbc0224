import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, REPO_ROOT, runCli } from './run-cli';

/**
 * `ideact mcp serve` (issue 19) as a process: usage errors, Streamable HTTP with a bearer token
 * stopped by SIGTERM, and a stdio server that ends when its client closes stdin. The protocol itself
 * is tested in test/mcp/server/.
 */
const IDEAS = path.join(REPO_ROOT, 'test', 'mcp', 'server', 'fixtures', 'ideas');

/** Resolves with the child's exit code once it ends. */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('ideact mcp serve (built CLI)', () => {
  const children: ChildProcess[] = [];

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('exits 2 naming --ideas / --config when there is nothing to serve', async () => {
    const result = await runCli(['mcp', 'serve']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--ideas / --config: nothing to serve');
  });

  it('exits 2 for a port that is not one', async () => {
    const result = await runCli(['mcp', 'serve', '--ideas', IDEAS, '--http', 'eighty']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--http: "eighty" is not a port');
  });

  it('serves the container a --config module’s function returns, and refuses --ideas beside it', async () => {
    const config = path.join(
      REPO_ROOT,
      'test',
      'mcp',
      'server',
      'fixtures',
      'container-config.cjs',
    );
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', 'serve', '--config', config],
        stderr: 'ignore',
      }),
    );
    try {
      const result = await client.callTool({ name: 'ping', arguments: {} });
      expect(result.structuredContent).toEqual({ result: 'pong' });
    } finally {
      await client.close();
    }
    const both = await runCli(['mcp', 'serve', '--config', config, '--ideas', IDEAS]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('exports a container, which already has its Tools and provider');
  });

  it('serves Streamable HTTP with a bearer token until SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'mcp',
        'serve',
        '--ideas',
        IDEAS,
        '--provider',
        'offline',
        '--http',
        '0',
        '--token',
        't0k',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const ended = exited(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const url = await new Promise<URL>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp) \(bearer token required\)/.exec(stderr);
        if (match) resolve(new URL(match[1]));
      });
      void ended.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });

    const refused = await fetch(url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: 'Bearer t0k' } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['lyricist', 'slogan']);
    await client.close();

    child.kill('SIGTERM');
    expect(await ended).toBe(0);
    expect(stderr).toContain('ideact mcp serve: SIGTERM: stopping');
    expect(stdout).toBe('');
  });

  it('ends a stdio server with exit 0 when the client closes stdin', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'mcp', 'serve', '--ideas', IDEAS, '--provider', 'offline'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(child);
    const ended = exited(child);
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('on stdio')) resolve();
      }),
    );
    child.stdin!.end();
    expect(await ended).toBe(0);
  });

  it('--no-approval runs a Tool that needs approval without asking, and warns at start (issue 27 item 2)', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ideact-no-approval-'));
    const effects = path.join(directory, 'effects.txt');
    const config = path.join(REPO_ROOT, 'test', 'calls', 'fixtures', 'matrix', 'matrix-tools.cjs');
    const serve = async (flags: string[]) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', 'serve', '--config', config, ...flags],
        env: {
          ...(process.env as Record<string, string>),
          // The matrix config's provider is never asked here: deleteFile is an Activity.
          MATRIX_BASE_URL: 'http://127.0.0.1:9/v1',
          MATRIX_EFFECTS: effects,
        },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const client = new Client({ name: 'no-approval-test', version: '1.0.0' });
      await client.connect(transport);
      const result = await client.callTool({ name: 'deleteFile', arguments: { path: 'x.txt' } });
      await client.close();
      return { result, stderr };
    };
    try {
      const asked = await serve([]);
      expect(asked.result.isError).toBe(true);
      expect(existsSync(effects)).toBe(false);
      expect(asked.stderr).not.toContain('WITHOUT asking');

      const unasked = await serve(['--no-approval']);
      expect(unasked.result.isError).toBeUndefined();
      expect(readFileSync(effects, 'utf8')).toBe('x.txt\n');
      expect(unasked.stderr).toContain('IDEACT_MCP_APPROVAL_SKIPPED');
      expect(unasked.stderr).toContain('WITHOUT asking anyone');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
