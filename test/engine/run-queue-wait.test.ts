import { RunQueue } from 'ideact';
import { databaseForThisFile } from '../support/test-database';

/**
 * `RunQueue.wait` with `timeoutMs` (issue 31): after the timeout it resolves to the run as it is
 * now, even while no worker serves the queue. DBOS's client ignores its own `timeoutSeconds`, so a
 * wait used to last until the workflow ended (a test waiting for a stalled run hung until Jest's
 * own timeout instead of failing with the run's status).
 */
const db = databaseForThisFile();

describe('RunQueue.wait (issue 31)', () => {
  let queue: RunQueue;
  beforeAll(() => {
    queue = new RunQueue({
      databaseUrl: db.url,
      schema: db.schema,
      systemSchema: db.newSchema(),
      queueName: 'nobody-serves-this-queue',
    });
  });
  afterAll(async () => {
    await queue.close();
  });

  it('after timeoutMs it resolves to the run as stored, its workflow still enqueued', async () => {
    const { runId } = await queue.enqueue({ task: 'Nobody runs this.' });
    const started = Date.now();
    const result = await queue.wait(runId, { timeoutMs: 600, pollingIntervalMs: 50 });
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ runId, status: 'running' });
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(10_000);
  });
});
