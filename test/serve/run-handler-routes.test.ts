import { promises as fs } from 'node:fs';
import { createRunHandler, RunHandlerConfigError } from 'ideact';
import {
  ANSWERS,
  deleted,
  readSse,
  runEvents,
  serveApp,
  servedAgent,
  settled,
  TASKS,
  type ServedApp,
} from './support/serve-fixtures';

/**
 * Issue 32 items 1 and 4: every route of `createRunHandler` through real HTTP (node:http via
 * `toNodeListener`, 127.0.0.1): start, stream, status, list, cancel, approvals (a decision is
 * consumed once: a second one is 409), principal isolation, CORS, body/input limits, the
 * per-principal run cap (429 + Retry-After), and errors without stack traces.
 */
const TOKEN = 'test-token-32';
const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp({ token: TOKEN, corsOrigins: ['https://app.example'] });
});
afterAll(async () => {
  await app.close();
  await fs.rm(app.dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = json) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('runs (issue 32 item 1)', () => {
  it('POST /runs → 201 { runId }; GET /runs/:id shows status, output and usage; GET /runs lists it', async () => {
    const started = await post('/runs', { task: TASKS.hello });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    expect(runId).toMatch(/^run_/);
    const detail = await settled(app.url, runId, auth);
    expect(detail).toMatchObject({
      runId,
      target: 'agent',
      status: 'completed',
      stopReason: 'output',
      output: ANSWERS.hello,
      failedCalls: [],
    });
    expect((detail.usage as { turns: number }).turns).toBe(1);
    const list = (await (await fetch(`${app.url}/runs`, { headers: auth })).json()) as {
      runs: Array<{ runId: string; status: string }>;
    };
    expect(list.runs).toContainEqual(expect.objectContaining({ runId, status: 'completed' }));
  });

  it('a run is readable as soon as POST /runs answered (20 starts at once, each read at once)', async () => {
    const wide = await serveApp({ token: TOKEN, maxConcurrentRuns: 50 });
    try {
      const ids = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const started = await fetch(`${wide.url}/runs`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ task: TASKS.hello }),
          });
          return ((await started.json()) as { runId: string }).runId;
        }),
      );
      const statuses = await Promise.all(
        ids.map(
          async (runId) => (await fetch(`${wide.url}/runs/${runId}`, { headers: auth })).status,
        ),
      );
      expect(statuses).toEqual(ids.map(() => 200));
      for (const runId of ids) await settled(wide.url, runId, auth);
    } finally {
      await wide.close();
      await fs.rm(wide.dir, { recursive: true, force: true });
    }
  });

  it('POST /runs with Accept: text/event-stream answers with the run events, one id each (1, 2, …), ending at run-end', async () => {
    const response = await post(
      '/runs',
      { task: TASKS.weather },
      { ...json, accept: 'text/event-stream' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = runEvents(await readSse(response));
    expect(events.map((item) => item.id)).toEqual(events.map((_item, index) => index + 1));
    const types = events.map((item) => item.event.type);
    expect(types[0]).toBe('run-start');
    expect(types[types.length - 1]).toBe('run-end');
    expect(types).toEqual(expect.arrayContaining(['call-start', 'call-end', 'output-delta']));
    const runId = response.headers.get('x-ideact-run-id') as string;
    expect(events.every((item) => item.event.path[0] === runId)).toBe(true);
    // The same events, read again after the run ended, from the store.
    const again = runEvents(
      await readSse(await fetch(`${app.url}/runs/${runId}/events`, { headers: auth })),
    );
    expect(again).toEqual(events);
  });

  it('an input that does not start a run is a 400 naming what is wrong; an unknown target a 404', async () => {
    const badTask = await post('/runs', { task: 42 });
    expect(badTask.status).toBe(400);
    expect(await badTask.json()).toEqual({
      error: { code: 'INVALID_REQUEST', message: '`task` must be a string.', path: '/task' },
    });
    const unknown = await post('/runs', { idea: 'nope', task: 'x' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      'TARGET_NOT_FOUND',
    );
  });
});

describe('approvals (issue 32 item 1, R-LOOP-4)', () => {
  it('a Call that needs approval holds the run; POST approvals runs it once; a second approval is 409', async () => {
    const before = deleted.length;
    const { runId } = (await (await post('/runs', { task: TASKS.delete })).json()) as {
      runId: string;
    };
    const waiting = await settled(app.url, runId, auth);
    expect(waiting).toMatchObject({
      status: 'awaiting_approval',
      interruptions: [{ callId: '1:0', tool: 'deleteFile', params: { path: 'notes.txt' } }],
    });
    expect(deleted.length).toBe(before);

    const unknownCall = await post(`/runs/${runId}/approvals`, {
      decisions: { '9:9': { approve: true } },
    });
    expect(unknownCall.status).toBe(400);
    const invalid = await post(`/runs/${runId}/approvals`, {
      decisions: { '1:0': { maybe: true } },
    });
    expect(invalid.status).toBe(400);

    // Two approvals at once: one resumes the run, the other finds it no longer waiting.
    const [first, second] = await Promise.all([
      post(`/runs/${runId}/approvals`, { decisions: { '1:0': { approve: true } } }),
      post(`/runs/${runId}/approvals`, { decisions: { '1:0': { approve: true } } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const conflict = [first, second].find((response) => response.status === 409) as Response;
    expect(((await conflict.json()) as { error: { code: string } }).error.code).toBe(
      'RUN_NOT_AWAITING_APPROVAL',
    );
    expect(await settled(app.url, runId, auth)).toMatchObject({
      status: 'completed',
      output: ANSWERS.deleted,
    });
    expect(deleted.slice(before)).toEqual(['notes.txt']);
    const late = await post(`/runs/${runId}/approvals`, {
      decisions: { '1:0': { approve: true } },
    });
    expect(late.status).toBe(409);
    expect(deleted.slice(before)).toEqual(['notes.txt']);
  });

  it('a rejection feeds the model and nothing runs', async () => {
    const before = deleted.length;
    const { runId } = (await (await post('/runs', { task: TASKS.delete })).json()) as {
      runId: string;
    };
    await settled(app.url, runId, auth);
    const answer = await post(`/runs/${runId}/approvals`, {
      decisions: { '1:0': { reject: 'keep it' } },
    });
    expect(answer.status).toBe(202);
    const done = await settled(app.url, runId, auth);
    expect(done.status).toBe('completed');
    expect(done.failedCalls).toEqual([
      expect.objectContaining({ callId: '1:0', tool: 'deleteFile', code: 'CALL_REJECTED' }),
    ]);
    expect(deleted.length).toBe(before);
  });
});

describe('cancel and disconnect (issue 32 item 1)', () => {
  it('a client that disconnects does not stop the run; POST cancel does (status cancelled); cancelling a completed run is 409', async () => {
    const slow = await serveApp({
      token: TOKEN,
      agent: servedAgent({ delayMs: 15, chunkSize: 2 }),
    });
    try {
      const streamed = await fetch(`${slow.url}/runs`, {
        method: 'POST',
        headers: { ...json, accept: 'text/event-stream' },
        body: JSON.stringify({ task: TASKS.slow }),
      });
      const runId = streamed.headers.get('x-ideact-run-id') as string;
      await readSse(streamed, 3); // then the client goes away
      await new Promise((resolve) => setTimeout(resolve, 100));
      const running = (await (
        await fetch(`${slow.url}/runs/${runId}`, { headers: auth })
      ).json()) as {
        status: string;
      };
      expect(running.status).toBe('running');
      const cancelled = await fetch(`${slow.url}/runs/${runId}/cancel`, {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toEqual({ runId, status: 'cancelled' });
      expect((await settled(slow.url, runId, auth)).status).toBe('cancelled');

      const { runId: quick } = (await (
        await fetch(`${slow.url}/runs`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ task: TASKS.hello }),
        })
      ).json()) as { runId: string };
      await settled(slow.url, quick, auth);
      const late = await fetch(`${slow.url}/runs/${quick}/cancel`, {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      expect(late.status).toBe(409);
    } finally {
      await slow.close();
      await fs.rm(slow.dir, { recursive: true, force: true });
    }
  });
});

describe('safety (issue 32 item 4)', () => {
  it('without the token: 401 with WWW-Authenticate, and nothing is started', async () => {
    const response = await fetch(`${app.url}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
      body: JSON.stringify({ task: TASKS.hello }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'UNAUTHORIZED',
    );
  });

  it('a run belongs to its principal: another principal gets 404 on every route and does not see it listed', async () => {
    const users = await serveApp({
      authorize: (request) => {
        const user = request.headers.get('x-user');
        return user === null ? undefined : { id: user };
      },
    });
    try {
      const as = (user: string) => ({ 'x-user': user, 'content-type': 'application/json' });
      const { runId } = (await (
        await fetch(`${users.url}/runs`, {
          method: 'POST',
          headers: as('alice'),
          body: JSON.stringify({ task: TASKS.delete }),
        })
      ).json()) as { runId: string };
      expect((await settled(users.url, runId, as('alice'))).status).toBe('awaiting_approval');
      const routes: Array<[string, string, unknown?]> = [
        ['GET', `/runs/${runId}`],
        ['GET', `/runs/${runId}/events`],
        ['POST', `/runs/${runId}/cancel`, {}],
        ['POST', `/runs/${runId}/approvals`, { decisions: { '1:0': { approve: true } } }],
      ];
      for (const [method, path, body] of routes) {
        const response = await fetch(`${users.url}${path}`, {
          method,
          headers: as('mallory'),
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect([path, response.status]).toEqual([path, 404]);
        expect(await response.json()).toEqual({
          error: { code: 'RUN_NOT_FOUND', message: `No run "${runId}".` },
        });
      }
      const listed = (await (
        await fetch(`${users.url}/runs`, { headers: as('mallory') })
      ).json()) as { runs: unknown[] };
      expect(listed.runs).toEqual([]);
      expect((await settled(users.url, runId, as('alice'))).status).toBe('awaiting_approval');
    } finally {
      await users.close();
      await fs.rm(users.dir, { recursive: true, force: true });
    }
  });

  it('under a base path, with principals: every route answers under it only, and /chat keeps one principal’s chat from another', async () => {
    const mounted = await serveApp({
      basePath: '/api/agent',
      authorize: (request) => {
        const user = request.headers.get('x-user');
        return user === null ? undefined : { id: user };
      },
    });
    try {
      const as = (user: string) => ({ 'x-user': user, 'content-type': 'application/json' });
      const chat = (user: string) =>
        fetch(`${mounted.url}/api/agent/chat`, {
          method: 'POST',
          headers: as(user),
          body: JSON.stringify({
            id: 'chat-shared-id',
            messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: TASKS.delete }] }],
          }),
        });
      const started = await chat('alice');
      expect(started.status).toBe(200);
      const chunks = (await readSse(started)).map((message) => message.data);
      const aliceRun = (
        chunks.find(
          (chunk) => (chunk as { messageMetadata?: unknown }).messageMetadata !== undefined,
        ) as { messageMetadata: { runId: string } }
      ).messageMetadata.runId;
      expect(aliceRun).toMatch(/^run_/);
      expect((await settled(`${mounted.url}/api/agent`, aliceRun, as('alice'))).status).toBe(
        'awaiting_approval',
      );

      // Nothing answers outside the base path.
      for (const path of ['/runs', `/runs/${aliceRun}`, '/chat']) {
        const outside = await fetch(`${mounted.url}${path}`, { headers: as('alice') });
        expect([path, outside.status]).toEqual([path, 404]);
      }
      // Another principal neither resumes nor streams alice's chat, nor sees its run.
      const resumed = await fetch(`${mounted.url}/api/agent/chat/chat-shared-id/stream`, {
        headers: as('mallory'),
      });
      expect(resumed.status).toBe(204);
      const listed = (await (
        await fetch(`${mounted.url}/api/agent/runs`, { headers: as('mallory') })
      ).json()) as { runs: unknown[] };
      expect(listed.runs).toEqual([]);
      // The same chat id from mallory is a chat of mallory's own: a new run, alice's left as it was.
      const own = (await readSse(await chat('mallory'))).map((message) => message.data);
      const malloryRun = (
        own.find(
          (chunk) => (chunk as { messageMetadata?: unknown }).messageMetadata !== undefined,
        ) as { messageMetadata: { runId: string } }
      ).messageMetadata.runId;
      expect(malloryRun).not.toBe(aliceRun);
      expect((await settled(`${mounted.url}/api/agent`, aliceRun, as('alice'))).status).toBe(
        'awaiting_approval',
      );
    } finally {
      await mounted.close();
      await fs.rm(mounted.dir, { recursive: true, force: true });
    }
  });

  it('CORS: an allowed origin gets its preflight answered and the header; any other origin is 403 before anything runs', async () => {
    const preflight = await fetch(`${app.url}/runs`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const allowed = await fetch(`${app.url}/runs`, {
      headers: { ...auth, origin: 'https://app.example' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const before = (await app.store.list()).length;
    const evil = await fetch(`${app.url}/runs`, {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example' },
      body: JSON.stringify({ task: TASKS.hello }),
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await evil.json()) as { error: { code: string } }).error.code).toBe(
      'FORBIDDEN_ORIGIN',
    );
    expect((await app.store.list()).length).toBe(before);
  });

  it('limits: a body over maxBodyBytes is 413, an input over maxInputBytes is 413, a non-JSON body 415', async () => {
    const limited = await serveApp({ token: TOKEN, maxBodyBytes: 2_000, maxInputBytes: 500 });
    try {
      const send = (body: string, headers: Record<string, string> = json) =>
        fetch(`${limited.url}/runs`, { method: 'POST', headers, body });
      const big = await send(JSON.stringify({ task: 'x'.repeat(3_000) }));
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: { code: string } }).error.code).toBe('BODY_TOO_LARGE');
      const input = await send(
        JSON.stringify({ task: TASKS.hello, input: { text: 'y'.repeat(800) } }),
      );
      expect(input.status).toBe(413);
      expect(((await input.json()) as { error: { code: string } }).error.code).toBe(
        'INPUT_TOO_LARGE',
      );
      const form = await send('task=hello', {
        ...auth,
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
      expect(await limited.store.list()).toEqual([]);
    } finally {
      await limited.close();
      await fs.rm(limited.dir, { recursive: true, force: true });
    }
  });

  it('a principal with maxConcurrentRuns runs running gets 429 with Retry-After', async () => {
    const capped = await serveApp({
      token: TOKEN,
      maxConcurrentRuns: 1,
      agent: servedAgent({ delayMs: 10, chunkSize: 2 }),
    });
    try {
      const start = () =>
        fetch(`${capped.url}/runs`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ task: TASKS.slow }),
        });
      const first = await start();
      expect(first.status).toBe(201);
      const second = await start();
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('5');
      expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
        'TOO_MANY_RUNS',
      );
      const { runId } = (await first.json()) as { runId: string };
      await fetch(`${capped.url}/runs/${runId}/cancel`, {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      expect((await start()).status).toBe(201);
    } finally {
      await capped.close();
      await fs.rm(capped.dir, { recursive: true, force: true });
    }
  });

  it('a failure inside the server answers 500 without a stack trace or its message; the error goes to onError', async () => {
    const seen: unknown[] = [];
    const handler = createRunHandler(servedAgent(), {
      store: {
        create: () => Promise.resolve(),
        append: () => Promise.resolve(),
        load: () => Promise.resolve(undefined),
        list: () => Promise.reject(new Error('disk on fire at /secret/path')),
        delete: () => Promise.resolve(),
      },
      onError: (error) => seen.push(error),
    });
    const response = await handler(new Request('http://127.0.0.1/runs'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'The server failed to answer; it logged why.' },
    });
    expect(text).not.toMatch(/secret|at .*\.ts|Error:/);
    expect(seen).toHaveLength(1);
    await handler.close();
  });

  it('a bad option is a RunHandlerConfigError naming it', () => {
    expect(() => createRunHandler(servedAgent(), { maxBodyBytes: -1 })).toThrow(
      RunHandlerConfigError,
    );
    expect(() => createRunHandler(servedAgent(), { basePath: 'api' })).toThrow(/options\.basePath/);
  });
});
