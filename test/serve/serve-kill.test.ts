import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunEvent } from 'ideact';
import { serversForThisFile } from '../support/chat-completions-server';
import { readSse, runEvents } from './support/serve-fixtures';

/**
 * Issue 32 item 1: `ideact serve` (the built CLI, a FileRunStore) is SIGKILLed while a run streams;
 * a new server on the same folder drives the run again by itself (it resumes the served runs it
 * finds `running`: no other process can, since only the server knows which agent a served run
 * belongs to), and a client reconnecting with `Last-Event-ID` gets exactly the rest: ids go on from
 * the last one it saw, none twice, none missing, ending with the run's end.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const CONFIG = path.join(__dirname, 'fixtures', 'serve-config.cjs');
const TOKEN = 'kill-test-token';
const FINAL = 'The weather in Paris is sunny; this answer streams slowly enough to be interrupted.';
const model = serversForThisFile();
let directory: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-serve-kill-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await fs.rm(directory, { recursive: true, force: true });
});

/** Starts `ideact serve` and resolves to its URL (from its first stdout line) and its stderr. */
async function startServer(
  baseURL: string,
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'dist', 'cli', 'main.js'),
      'serve',
      '--config',
      CONFIG,
      '--port',
      '0',
      '--dir',
      directory,
      '--token',
      TOKEN,
    ],
    { env: { ...process.env, SERVE_BASE_URL: baseURL }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (match !== null) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`ideact serve exited (${code}): ${stderr}`)));
  });
  return { url, child, stderr: () => stderr };
}

it('a server killed mid-run, restarted on the same store: the run goes on and Last-Event-ID gets exactly the rest', async () => {
  const server = await model((request) => {
    const prompt = JSON.stringify(request.body.messages);
    if (prompt.includes('## Result of')) {
      return { json: { calls: [], output: FINAL }, chunkSize: 2, chunkDelayMs: 25 };
    }
    return { json: { calls: [{ _tool: 'weather', city: 'Paris' }], output: null } };
  });
  const first = await startServer(server.baseURL);
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const response = await fetch(`${first.url}/runs`, {
    method: 'POST',
    headers: { ...headers, accept: 'text/event-stream' },
    body: JSON.stringify({ task: 'weather in Paris, please' }),
  });
  const runId = response.headers.get('x-ideact-run-id') as string;
  // Read until the answer has started streaming; then the server dies under the client.
  const before = runEvents(
    await readSse(
      response,
      (messages) =>
        messages.filter((message) => (message.data as RunEvent).type === 'output-delta').length >=
        3,
    ),
  );
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  expect(before.map((item) => item.id)).toEqual(before.map((_item, index) => index + 1));
  expect(before.some((item) => item.event.type === 'run-end')).toBe(false);
  const lastSeen = before[before.length - 1]!.id;

  // A new server on the same store drives the run again; the client reconnects after what it saw.
  const second = await startServer(server.baseURL);
  const rest = runEvents(
    await readSse(
      await fetch(`${second.url}/runs/${runId}/events`, {
        headers: { ...headers, 'last-event-id': String(lastSeen) },
      }),
    ),
  );
  expect(second.stderr()).toContain(`resumed ${runId}`);
  expect(rest.map((item) => item.id)).toEqual(rest.map((_item, index) => lastSeen + 1 + index));
  const last = rest[rest.length - 1]!.event;
  expect(last).toMatchObject({ type: 'run-end', runId, stopReason: 'output', output: FINAL });
  // The resumed segment says so, and the answer's partial values grow to the final output.
  expect(rest.some((item) => item.event.type === 'run-start' && item.event.resumed)).toBe(true);
  // Exactly the journal: what the client saw before and after, in order, is the whole stream.
  const whole = runEvents(
    await readSse(await fetch(`${second.url}/runs/${runId}/events`, { headers })),
  );
  expect([...before, ...rest]).toEqual(whole);
  const detail = (await (await fetch(`${second.url}/runs/${runId}`, { headers })).json()) as {
    status: string;
    output: unknown;
  };
  expect(detail).toMatchObject({ status: 'completed', output: FINAL });
  second.child.kill('SIGTERM');
  await new Promise((resolve) => second.child.once('exit', resolve));
}, 60_000);
