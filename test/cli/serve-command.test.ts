import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { request as httpRequest } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../dev/support/http-client';
import { REPO_ROOT, runCli, type CliRun } from './run-cli';

/**
 * Issue 32: `ideact serve` (the built CLI) refuses to run without something to serve and refuses a
 * public host without a token (exit 2); with `--ideas examples/music` it serves each Idea as a target
 * (input checked against the Idea's input schema), runs one on the offline provider, and stops on
 * SIGTERM.
 */
let cwd: string;
beforeAll(async () => {
  cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-serve-cli-')));
});
afterAll(async () => {
  await fs.rm(cwd, { recursive: true, force: true });
});

describe('ideact serve', () => {
  it('refuses to start with nothing to serve, or on a public host without a token (exit 2)', async () => {
    const nothing = await runCli(['serve'], { cwd });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--ideas');
    const open = await runCli(
      ['serve', '--ideas', path.join(REPO_ROOT, 'examples', 'music'), '--host', '0.0.0.0'],
      { cwd, env: { IDEACT_SERVE_TOKEN: '' } }, // an empty token is no token
    );
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('without a token');
  });

  it('without a token, answers only requests that name it in Host (DNS rebinding)', async () => {
    let child: ChildProcess | undefined;
    const done: Promise<CliRun> = runCli(
      ['serve', '--ideas', path.join(REPO_ROOT, 'examples', 'music'), '--port', '0'],
      { cwd, onSpawn: (spawned) => (child = spawned) },
    );
    try {
      let stdout = '';
      child!.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const url = await waitFor(async () => /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0], 10_000);
      const port = new URL(url).port;
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const request = httpRequest(
            { host: '127.0.0.1', port, path: '/runs', headers: { host } },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          request.on('error', reject);
          request.end();
        });
      expect(await status(`localhost:${port}`)).toBe(200);
      expect(await status(`evil.example:${port}`)).toBe(403);
    } finally {
      child?.kill('SIGTERM');
    }
    expect((await done).code).toBe(0);
  }, 60_000);

  it('serves the Ideas of a folder, checks a run’s input, runs one, stops on SIGTERM', async () => {
    let child: ChildProcess | undefined;
    const done: Promise<CliRun> = runCli(
      [
        'serve',
        '--ideas',
        path.join(REPO_ROOT, 'examples', 'music'),
        '--port',
        '0',
        '--token',
        't0k',
      ],
      { cwd, onSpawn: (spawned) => (child = spawned) },
    );
    try {
      let stdout = '';
      child!.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const url = await waitFor(async () => /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0], 10_000);
      expect(stdout).toContain(`ideact serve: ${url} (provider: offline`);
      const headers = { authorization: 'Bearer t0k', 'content-type': 'application/json' };
      const bad = await fetch(`${url}/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ idea: 'producer', input: {} }),
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_PARAMS');
      const started = await fetch(`${url}/runs`, {
        method: 'POST',
        headers: { ...headers, accept: 'text/event-stream' },
        body: JSON.stringify({ idea: 'producer', input: { brief: 'One rainy ballad.' } }),
      });
      expect(started.status).toBe(200);
      const text = await started.text();
      expect(text).toContain('"type":"run-start"');
      expect(text).toContain('"type":"run-end"');
      const runId = started.headers.get('x-ideact-run-id') as string;
      const detail = (await (await fetch(`${url}/runs/${runId}`, { headers })).json()) as {
        target: string;
        status: string;
      };
      expect(detail).toMatchObject({ target: 'producer' });
      expect(detail.status).not.toBe('running');
      await fs.access(path.join(cwd, '.ideact', 'runs', runId, 'events.jsonl'));
    } finally {
      child?.kill('SIGTERM');
    }
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('SIGTERM: stopping');
  }, 60_000);
});
