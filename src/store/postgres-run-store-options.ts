import type { PostgresPool } from './postgres-connection';

/** Options of {@link PostgresRunStore}. */
export interface PostgresRunStoreOptions {
  /** `postgres://user:password@host:port/database`; PG* environment variables fill in what it omits. */
  connectionString?: string;
  /** The PostgreSQL schema holding the store's tables, created on first use (default `ideact`). */
  schema?: string;
  /** A `pg` Pool of yours to use instead of one of the store's own; `close()` leaves it open. */
  pool?: PostgresPool;
  /**
   * A new checkpoint after this many commits of a run past the last one (default 50), once they are
   * also `checkpointGrowth` × the commits the last checkpoint covers.
   */
  checkpointEvery?: number;
  /**
   * The growth, relative to the commits the last checkpoint covers, before the next one (default
   * 0.5), as for a FileRunStore: a checkpoint replays the whole run, so spacing them geometrically
   * keeps a long run's checkpoint work linear in its length (`load` replays at most about half as
   * many commits as the checkpoint covers); 0: strictly every `checkpointEvery` commits.
   */
  checkpointGrowth?: number;
  /**
   * How long to wait for a connection before failing with DatabaseConnectionError (default 10 000
   * ms), also while the server refuses new ones for now (`max_connections` or the role's limit
   * reached, the server starting up): the store asks again with a backoff until then.
   */
  connectionTimeoutMs?: number;
  /**
   * When a commit reaches the disk (issue 31), like FileRunStore's `sync`. `'batch'` (default): the
   * store's connections commit with `synchronous_commit = off` — an appended step survives the
   * process being killed and PostgreSQL restarting; a crash of the database server may lose the last
   * few hundred ms of a running run — and `flush()` (a run awaits it at its end or approval pause)
   * waits for the disk. `'commit'`: every append waits for the disk. With `pool`, commits follow
   * the pool's own settings and `'batch'` only makes `flush()` wait for the disk.
   */
  sync?: PostgresRunStoreSync;
}

/** See {@link PostgresRunStoreOptions.sync}. */
export type PostgresRunStoreSync = 'batch' | 'commit';
