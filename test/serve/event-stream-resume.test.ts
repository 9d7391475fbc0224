import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createRunHandler,
  FileRunStore,
  PostgresRunStore,
  type RunEvent,
  type RunStore,
} from 'ideact';
import { databaseForThisFile } from '../support/test-database';
import { growsMonotonically } from '../support/growing-value';
import { ANSWERS, readSse, runEvents, servedAgent, TASKS } from './support/serve-fixtures';

/**
 * Issue 32 item 1: `GET /runs/:id/events` resumes with `Last-Event-ID` — a client that disconnects
 * after k events and reconnects gets exactly the rest (no event twice, none lost), also from
 * another server instance sharing the run store (FileRunStore and PostgresRunStore alike), while
 * the run goes on (a disconnect never cancels it). Item 3: the output's partial values on the
 * stream grow monotonically and end equal to the final output.
 */
const database = databaseForThisFile();
let directory: string;

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-serve-resume-'));
});
afterAll(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

const stores: Array<[string, () => RunStore]> = [
  ['FileRunStore', () => new FileRunStore({ dir: directory })],
  [
    'PostgresRunStore',
    () => new PostgresRunStore({ connectionString: database.url, schema: database.schema }),
  ],
];

const call = (handler: (request: Request) => Promise<Response>, url: string, init?: RequestInit) =>
  handler(new Request(`http://127.0.0.1${url}`, init));

describe.each(stores)('%s', (_name, makeStore) => {
  it('a client that reconnects with Last-Event-ID after k events gets exactly the rest, here and from another instance sharing the store', async () => {
    const storeA = makeStore();
    const storeB = makeStore();
    const agentA = servedAgent({ delayMs: 8, chunkSize: 3 });
    const agentB = servedAgent();
    const serverA = createRunHandler(agentA, { store: storeA, onError: () => undefined });
    const serverB = createRunHandler(agentB, { store: storeB, onError: () => undefined });
    try {
      const started = await call(serverA, '/runs', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ task: TASKS.slow }),
      });
      const runId = started.headers.get('x-ideact-run-id') as string;
      const k = 5;
      const first = runEvents(await readSse(started, k));
      expect(first.map((item) => item.id)).toEqual([1, 2, 3, 4, 5]);

      // Reconnect to the same instance after event k, and to another instance after event k + 2.
      const [here, there] = await Promise.all([
        call(serverA, `/runs/${runId}/events`, { headers: { 'last-event-id': String(k) } }).then(
          async (response) => runEvents(await readSse(response)),
        ),
        call(serverB, `/runs/${runId}/events`, {
          headers: { 'last-event-id': String(k + 2) },
        }).then(async (response) => runEvents(await readSse(response))),
      ]);
      const whole = runEvents(await readSse(await call(serverA, `/runs/${runId}/events`)));
      expect(whole.map((item) => item.id)).toEqual(whole.map((_item, index) => index + 1));
      expect(whole[whole.length - 1]?.event).toMatchObject({
        type: 'run-end',
        runId,
        output: ANSWERS.slow,
      });
      expect([...first, ...here]).toEqual(whole);
      expect(there).toEqual(whole.slice(k + 2));

      // Item 3 on the wire: the output's partial values grow and end at the final output.
      const outputs = whole
        .map((item) => item.event)
        .filter(
          (event): event is Extract<RunEvent, { type: 'output-delta' }> =>
            event.type === 'output-delta' && event.part === 'output',
        )
        .map((event) => event.value);
      expect(outputs.length).toBeGreaterThan(10);
      expect(growsMonotonically(outputs)).toBe(true);
      expect(outputs[outputs.length - 1]).toBe(ANSWERS.slow);
    } finally {
      await serverA.close();
      await serverB.close();
      await storeA.close?.();
      await storeB.close?.();
      await agentA.dispose();
      await agentB.dispose();
    }
  }, 60_000);
});

it('an id that is not a number is a 400; a run that does not exist is a 404', async () => {
  const store = new FileRunStore({ dir: directory });
  const handler = createRunHandler(servedAgent(), { store, onError: () => undefined });
  const started = await call(handler, '/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: TASKS.hello }),
  });
  const { runId } = (await started.json()) as { runId: string };
  const bad = await call(handler, `/runs/${runId}/events`, { headers: { 'last-event-id': 'x' } });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_EVENT_ID');
  expect((await call(handler, '/runs/run_nope/events')).status).toBe(404);
  await handler.close();
});
