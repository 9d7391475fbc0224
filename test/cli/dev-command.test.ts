/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read API answers as loose JSON */
import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { http, waitFor } from '../dev/support/http-client';
import { REPO_ROOT, runCli, type CliRun } from './run-cli';

/**
 * Issue 20 "done when": `ideact dev --ideas examples/music` (the built CLI) serves the playground on
 * the offline provider, says so, runs the music Ideas, and stops cleanly on Ctrl-C.
 */
let cwd: string;
beforeAll(async () => {
  cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-dev-cli-')));
});
afterAll(async () => {
  await fs.rm(cwd, { recursive: true, force: true });
});

describe('ideact dev', () => {
  it('refuses to start with nothing to serve (exit 2)', async () => {
    const result = await runCli(['dev'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--ideas');
  });

  it('serves examples/music on the offline provider, runs its Ideas, stops on SIGINT', async () => {
    let child: ChildProcess | undefined;
    const done: Promise<CliRun> = runCli(
      ['dev', '--ideas', path.join(REPO_ROOT, 'examples', 'music'), '--port', '0'],
      { cwd, onSpawn: (spawned) => (child = spawned) },
    );
    try {
      let stdout = '';
      child!.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const url = await waitFor(
        async () => /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout)?.[0],
        10_000,
      );
      expect(stdout).toContain(`ideact dev: ${url} (provider: offline`);

      const info = await http(url, '/api/info');
      expect(info.json.provider).toMatchObject({ name: 'offline', offline: true });
      expect(info.json.store).toEqual({
        kind: 'file',
        location: path.join(cwd, '.ideact', 'runs'),
      });
      const tools = (await http(url, '/api/tools')).json.tools.map((tool: any) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['producer', 'composer', 'sound-designer']));
      const page = await http(url, '/');
      expect(page.status).toBe(200);
      expect(page.text).toContain('/assets/app.js');

      const started = await http(url, '/api/runs', {
        method: 'POST',
        body: { tool: 'producer', params: { brief: 'One rainy ballad.' } },
      });
      expect(started.status).toBe(202);
      const detail = await waitFor(async () => {
        const answer = await http(url, `/api/runs/${started.json.runId}`);
        return answer.json.run.status === 'running' ? undefined : answer.json;
      }, 10_000);
      expect(detail.run).toMatchObject({ tool: 'producer', status: 'completed' });
      // The offline provider's request is in the run, with the messages it received.
      const request = detail.events.find((event: any) => event.type === 'request-start');
      const messages = detail.requests[request.requestId].messages;
      expect(messages[0].role).toBe('system');
      expect(messages.map((message: any) => message.content).join('\n')).toContain(
        'One rainy ballad.',
      );
    } finally {
      child?.kill('SIGINT');
    }
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('SIGINT: stopping');
  }, 25_000);
});
