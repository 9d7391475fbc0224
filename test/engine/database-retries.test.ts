import { getEventListeners } from 'node:events';
import { retryWhileDatabaseDown } from '../../src/engine/database-retries';

/** What `pg` throws when the server is gone (ECONNREFUSED is one of the connection codes). */
function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
}

/**
 * Issue 31 item 7: a worker's model turn outlives a restart of PostgreSQL by retrying connection
 * errors with backoff in the step's body (DBOS's own step retries read the workflow's status before
 * every attempt, a query per turn a healthy database never needs).
 */
describe('retryWhileDatabaseDown (a worker step while PostgreSQL restarts)', () => {
  it('retries connection errors with a doubling backoff until the database answers', async () => {
    const times: number[] = [];
    const result = await retryWhileDatabaseDown(
      async () => {
        times.push(Date.now());
        if (times.length < 3) throw refused();
        return 'answered';
      },
      { firstDelayMs: 40 },
    );
    expect(result).toBe('answered');
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(35);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(75);
  });

  it('throws the last connection error after the attempts run out', async () => {
    let attempts = 0;
    const failing = retryWhileDatabaseDown(
      async () => {
        attempts += 1;
        throw refused();
      },
      { attempts: 3, firstDelayMs: 1 },
    );
    await expect(failing).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(attempts).toBe(3);
  });

  it('does not retry any other error', async () => {
    let attempts = 0;
    const failing = retryWhileDatabaseDown(async () => {
      attempts += 1;
      throw new TypeError('a bug, not an outage');
    });
    await expect(failing).rejects.toThrow('a bug, not an outage');
    expect(attempts).toBe(1);
  });

  it('stops waiting when a signal aborts (a cancel, a stopping worker) and leaves no listener', async () => {
    const cancel = new AbortController();
    let attempts = 0;
    const started = Date.now();
    const failing = retryWhileDatabaseDown(
      async () => {
        attempts += 1;
        throw refused();
      },
      { firstDelayMs: 60_000, signals: [undefined, cancel.signal] },
    );
    setTimeout(() => cancel.abort(new Error('cancelled')), 20);
    await expect(failing).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(attempts).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
  });

  it('does not start another attempt once a signal has aborted', async () => {
    const stop = new AbortController();
    stop.abort();
    let attempts = 0;
    await expect(
      retryWhileDatabaseDown(
        async () => {
          attempts += 1;
          throw refused();
        },
        { signals: [stop.signal] },
      ),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(attempts).toBe(1);
  });
});
