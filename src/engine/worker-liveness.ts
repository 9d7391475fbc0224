import { pgDriver } from '../store/pg-driver';
import { connectionError, describeConnectionString } from '../store/postgres-connection';

const pg = pgDriver;

/** The first key of every worker lock, so ideact's advisory locks keep to themselves ("idea"). @internal */
export const LOCK_NAMESPACE = 0x1dea;

/**
 * Which workers are alive, told by PostgreSQL itself (issue 18): each worker holds a session
 * advisory lock named after its executor id on a connection of its own for as long as it runs.
 * PostgreSQL releases the lock the moment that connection ends, and a killed process's connection
 * ends with it, so "the lock can be taken" means "that worker is gone", with no heartbeat to tune
 * and no clock to trust. A worker that loses its lock connection must stop (see `onLost`).
 * @internal
 */
export class WorkerLiveness {
  /** The connection's statements, one after the other (pg deprecates overlapping queries). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly client: import('pg').Client,
    private closed = false,
  ) {}

  /** Runs one statement on the lock's connection once the previous ones are done. */
  private query<Row extends object>(text: string, values: unknown[]): Promise<{ rows: Row[] }> {
    const next = this.queue.then(() => this.client.query<Row>(text, values));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Connects and takes `executorId`'s lock; `onLost` is called if the connection drops later. */
  static async hold(
    databaseUrl: string,
    executorId: string,
    onLost: (error: Error) => void,
  ): Promise<WorkerLiveness> {
    const client = new (pg().Client)({ connectionString: databaseUrl, keepAlive: true });
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [
        LOCK_NAMESPACE,
        executorId,
      ]);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw connectionError(error, describeConnectionString(databaseUrl));
    }
    const liveness = new WorkerLiveness(client);
    const lost = (error?: Error): void => {
      if (liveness.closed) return;
      liveness.closed = true;
      onLost(error ?? new Error('the lock connection ended'));
    };
    client.on('error', lost);
    client.on('end', () => lost());
    return liveness;
  }

  /**
   * Runs `work` if the worker `executorId` is gone, holding its lock meanwhile so that no other
   * worker takes over the same executor at the same time; resolves to false (and runs nothing) when
   * it is alive or another worker is taking it over right now.
   */
  async whileGone(executorId: string, work: () => Promise<void>): Promise<boolean> {
    const taken = await this.query<{ taken: boolean }>(
      'SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS taken',
      [LOCK_NAMESPACE, executorId],
    );
    if (taken.rows[0]?.taken !== true) return false;
    try {
      await work();
    } finally {
      await this.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [
        LOCK_NAMESPACE,
        executorId,
      ]);
    }
    return true;
  }

  /**
   * Listens on `channel` on the lock's connection (no connection of its own): `onNotification`
   * receives each notification's payload while the worker runs.
   */
  async listen(channel: string, onNotification: (payload: string) => void): Promise<void> {
    this.client.on('notification', (message: { channel: string; payload?: string }) => {
      if (message.channel === channel) onNotification(message.payload ?? '');
    });
    await this.query(`LISTEN ${channel}`, []);
  }

  /** Sends a notification (`pg_notify`) on the lock's connection. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /**
   * Cancels the advisory-lock wait another backend of this user is in (`pg_cancel_backend`), and
   * nothing else: sent a moment late, a bare cancel would end whatever that backend runs next.
   */
  async cancelBackend(backendPid: number): Promise<void> {
    await this.query(
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
        WHERE pid = $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
      [backendPid],
    );
  }

  /** Ends the connection, releasing this worker's lock: other workers may now take over its runs. */
  async release(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.end().catch(() => undefined);
  }
}
