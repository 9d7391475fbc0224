import { pgDriver } from '../store/pg-driver';
import { LOCK_NAMESPACE } from './worker-liveness';

const pg = pgDriver;

/** Options of {@link WorkerWatch.start}. */
export interface WorkerWatchOptions {
  databaseUrl: string;
  /** This worker's executor id (its own lock is not watched). */
  executorId: string;
  /** How long one wait on the watched lock lasts before the ring is read again (ms). */
  waitMs: number;
  /** Called as soon as the watched worker's lock is free: a takeover scan should run now. */
  onGone: () => void;
  /** Told about a failing watch (it retries after `waitMs`). */
  onError: (error: unknown) => void;
  /** Cancels a backend's advisory-lock wait (`pg_cancel_backend`, from another connection). */
  cancelBackend: (backendPid: number) => Promise<void>;
}

/**
 * The live workers' lock keys, sorted (the advisory locks of the worker namespace held now), as
 * signed int4s: pg_advisory_lock's second argument.
 */
const RING_SQL = `SELECT DISTINCT (objid::bigint - CASE WHEN objid::bigint > 2147483647 THEN 4294967296 ELSE 0 END)::int AS key
    FROM pg_locks
   WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objsubid = 2
   ORDER BY key`;

/**
 * Tells a worker the moment the next worker in a ring of all live workers dies (issue 31): on a
 * connection of its own it waits for that worker's advisory lock (`pg_advisory_lock`, under
 * `lock_timeout`), which PostgreSQL grants as soon as the holder's connection ends, i.e. when the
 * process dies. It releases it at once and calls `onGone`. Each worker watches the one after it
 * (by lock key, wrapping around), so every live worker is watched by one other; the ring is read
 * again after each wait (`waitMs`), so a worker that joined is watched within that time. Idle, it
 * costs one `pg_locks` read and one lock wait per `waitMs`.
 * @internal
 */
export class WorkerWatch {
  private client?: import('pg').Client;
  private stopped = false;
  private wakePause?: () => void;
  /** The watch connection's backend while it waits for a lock. */
  private waiting?: number;
  /** A worker joined since the ring was last read. */
  private stale = false;
  private readonly loop: Promise<void>;

  private constructor(private readonly options: WorkerWatchOptions) {
    this.loop = this.run();
  }

  /** Starts watching (in the background). */
  static start(options: WorkerWatchOptions): WorkerWatch {
    return new WorkerWatch(options);
  }

  /**
   * Reads the ring again now (a worker joined: it may be the one to watch), ending the current wait.
   */
  refresh(): void {
    this.stale = true;
    this.wakePause?.();
    if (this.waiting !== undefined)
      void this.options.cancelBackend(this.waiting).catch(() => undefined);
  }

  /** Stops watching and ends its connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakePause?.();
    await this.client?.end().catch(() => undefined);
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const client = await this.connected();
        const own = await client.query<{ key: number }>('SELECT hashtext($1) AS key', [
          this.options.executorId,
        ]);
        const self = own.rows[0]?.key as number;
        this.stale = false;
        const ring = await client.query<{ key: number }>(RING_SQL, [LOCK_NAMESPACE]);
        const keys = ring.rows.map((row) => row.key).filter((key) => key !== self);
        const watched = keys.find((key) => key > self) ?? keys[0];
        if (watched === undefined) {
          if (!this.stale) await this.pause();
          continue;
        }
        if (await this.waitFor(client, watched)) this.options.onGone();
      } catch (error) {
        if (this.stopped) return;
        // `refresh()` cancelled a statement other than the wait (the ring's read): read it again.
        if ((error as { code?: string }).code === QUERY_CANCELED) continue;
        this.options.onError(error);
        await this.client?.end().catch(() => undefined);
        this.client = undefined;
        await this.pause();
      }
    }
  }

  /** True when `key`'s lock was granted (its holder is gone); false when the wait timed out. */
  private async waitFor(client: import('pg').Client, key: number): Promise<boolean> {
    if (this.stale) return false; // the ring changed while it was read: read it again
    this.waiting = (client as unknown as { processID?: number }).processID;
    try {
      await client.query('SELECT pg_advisory_lock($1::int, $2::int)', [LOCK_NAMESPACE, key]);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === LOCK_TIMEOUT || code === QUERY_CANCELED) return false;
      throw error;
    } finally {
      this.waiting = undefined;
    }
    await this.releaseLocks(client);
    return true;
  }

  /**
   * Gives up every advisory lock of the watch's session. A `refresh()` cancel sent while the wait
   * ended may land on this statement instead: it runs again then. Kept, the gone worker's lock would
   * look alive to every takeover scan (they take it to take over), and its runs would never move.
   */
  private async releaseLocks(client: import('pg').Client): Promise<void> {
    for (;;) {
      try {
        await client.query('SELECT pg_advisory_unlock_all()');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== QUERY_CANCELED) throw error;
      }
    }
  }

  private async connected(): Promise<import('pg').Client> {
    if (this.client !== undefined) return this.client;
    const client = new (pg().Client)({
      connectionString: this.options.databaseUrl,
      keepAlive: true,
    });
    client.on('error', () => undefined);
    this.client = client;
    await client.connect();
    await client.query(`SET lock_timeout = ${Math.max(1, Math.round(this.options.waitMs))}`);
    return client;
  }

  private async pause(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.waitMs);
      this.wakePause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakePause = undefined;
  }
}

/** SQLSTATE lock_not_available: `lock_timeout` expired. */
const LOCK_TIMEOUT = '55P03';

/** SQLSTATE query_canceled: `refresh()` ended the wait. */
const QUERY_CANCELED = '57014';
