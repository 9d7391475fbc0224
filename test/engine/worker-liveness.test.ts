import { Client } from 'pg';
import { LOCK_NAMESPACE, WorkerLiveness } from '../../src/engine/worker-liveness';
import { databaseForThisFile } from '../support/test-database';

/**
 * The cancel a worker's watch asks for when a worker joins (issue 31 item 4) ends an advisory-lock
 * wait and nothing else: sent a moment late, it found the watch releasing the gone worker's lock
 * instead, the release was cancelled, the watch's session kept the lock, and every takeover scan
 * (which takes that lock first) saw the worker alive: its runs never moved (a rare stall of the
 * worker kill tests). A statement that is not such a wait runs to its end.
 */
const db = databaseForThisFile();
const opened: Client[] = [];
let liveness: WorkerLiveness;

beforeAll(async () => {
  liveness = await WorkerLiveness.hold(db.url, `liveness-test-${process.pid}`, () => undefined);
});
afterAll(async () => {
  await liveness.release();
  for (const client of opened) await client.end().catch(() => undefined);
});

async function connected(): Promise<Client> {
  const client = new Client({ connectionString: db.url });
  opened.push(client);
  await client.connect();
  return client;
}

/** The server process of a connection (what `pg_cancel_backend` takes). */
async function backendPid(client: Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return rows[0]?.pid as number;
}

/** Polls until `pid` waits for an advisory lock (so the cancel finds it waiting). */
async function waitingForLock(observer: Client, pid: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await observer.query<{ waiting: boolean }>(
      `SELECT wait_event = 'advisory' AS waiting FROM pg_stat_activity WHERE pid = $1`,
      [pid],
    );
    if (rows[0]?.waiting === true) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backend ${pid} never waited for the advisory lock`);
}

describe('WorkerLiveness.cancelBackend (issue 31)', () => {
  it('ends a backend’s wait for a worker lock', async () => {
    const holder = await connected();
    const waiter = await connected();
    const observer = await connected();
    const key = 424_242;
    await holder.query('SELECT pg_advisory_lock($1::int, $2::int)', [LOCK_NAMESPACE, key]);
    const waiterPid = await backendPid(waiter);
    const wait = waiter
      .query('SELECT pg_advisory_lock($1::int, $2::int)', [LOCK_NAMESPACE, key])
      .then(
        () => 'granted',
        (error: { code?: string }) => error.code,
      );
    await waitingForLock(observer, waiterPid);
    await liveness.cancelBackend(waiterPid);
    expect(await wait).toBe('57014'); // query_canceled
    await holder.query('SELECT pg_advisory_unlock_all()');
  });

  it('leaves any other statement of that backend alone (a late cancel cannot cut a lock release short)', async () => {
    const worker = await connected();
    const key = 434_343;
    await worker.query('SELECT pg_advisory_lock($1::int, $2::int)', [LOCK_NAMESPACE, key]);
    const workerPid = await backendPid(worker);
    // A statement that runs a while but waits for no lock: the release a late cancel could hit.
    const release = worker.query(
      'SELECT pg_sleep(0.3), pg_advisory_unlock($1::int, $2::int) AS released',
      [LOCK_NAMESPACE, key],
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await liveness.cancelBackend(workerPid);
    const { rows } = await release;
    expect(rows[0]).toMatchObject({ released: true });
    const other = await connected();
    const { rows: taken } = await other.query<{ taken: boolean }>(
      'SELECT pg_try_advisory_lock($1::int, $2::int) AS taken',
      [LOCK_NAMESPACE, key],
    );
    expect(taken[0]?.taken).toBe(true);
  });
});
