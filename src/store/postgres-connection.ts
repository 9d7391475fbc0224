import { createHash } from 'node:crypto';
import { DatabaseConnectionError } from '../errors/database-connection.error';
import { pgDriver } from './pg-driver';

/**
 * The `pg` driver, loaded with the first PostgresRunStore (never by `require('ideact')`), plus what
 * the store needs of a pool (a structural type, so users need no `@types/pg`) and the typed error
 * for a server it cannot reach.
 */
const pg = pgDriver;

/** One query's rows (`pg`'s QueryResult, narrowed to what the store reads). */
export interface PostgresQueryResult {
  rows: unknown[];
  rowCount: number | null;
}

/** A query prepared once per connection under `name` (pg's named statements). */
export interface PostgresPreparedQuery {
  name: string;
  text: string;
  values: unknown[];
}

const preparedNames = new Map<string, string>();

/**
 * `text` as a query prepared once per connection (issue 31): its name is a hash of the text, so
 * two texts never share a name (PostgreSQL keeps 63 bytes of one) and the same text always does.
 */
export function prepared(text: string, values: unknown[]): PostgresPreparedQuery {
  let name = preparedNames.get(text);
  if (name === undefined) {
    name = `ideact_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return { name, text, values };
}

/** A connection that runs queries (a `pg` Client or PoolClient). */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  query(query: PostgresPreparedQuery): Promise<PostgresQueryResult>;
}

/** A connection taken from a pool; `release()` gives it back (with an error: discards it). */
export interface PostgresPoolClient extends PostgresQueryable {
  release(error?: Error | boolean): void;
}

/** What the store needs of a `pg` Pool: pass your own `new Pool(...)` as `pool`. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
}

/** Where a connection goes, for messages: never the password. */
export interface ConnectionTarget {
  /** `host:port`, or the socket folder and port. */
  target: string;
  database?: string;
  user?: string;
}

/** A pool of the store's own, from a connection string (and `pg`'s PG* environment defaults). */
export function createPool(
  connectionString: string | undefined,
  connectionTimeoutMs: number,
  asynchronousCommit = false,
): PostgresPool {
  const pool = new (pg().Pool)({
    ...(connectionString === undefined ? {} : { connectionString }),
    connectionTimeoutMillis: connectionTimeoutMs,
    // A startup parameter of each connection: no extra round trip. An `options` in the connection
    // string replaces it (PGOPTIONS is kept), which leaves commits synchronous, the safe side.
    ...(asynchronousCommit
      ? { options: [process.env.PGOPTIONS, '-c synchronous_commit=off'].filter(Boolean).join(' ') }
      : {}),
  });
  // An idle connection the server closed must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool as unknown as PostgresPool;
}

/** The server a connection string names (host, port, database, user), as pg would default them. */
export function describeConnectionString(connectionString: string | undefined): ConnectionTarget {
  const env = process.env;
  let url: URL | undefined;
  try {
    if (connectionString !== undefined) url = new URL(connectionString);
  } catch {
    return { target: 'the server of the connection string (it is not a valid URL)' };
  }
  const hostParameter = url?.searchParams.get('host') ?? undefined;
  const host =
    decodeURIComponent(url?.hostname ?? '') || hostParameter || env.PGHOST || 'localhost';
  const port = url?.port || env.PGPORT || '5432';
  const database = decodeURIComponent(url?.pathname.replace(/^\//, '') ?? '') || env.PGDATABASE;
  const user = decodeURIComponent(url?.username ?? '') || env.PGUSER || undefined;
  return {
    target: `${host}:${port}`,
    ...(database === undefined || database === '' ? {} : { database }),
    ...(user === undefined ? {} : { user }),
  };
}

/** The server a pool of the user's connects to (`pool.options`, when it is a `pg` Pool). */
export function describePool(pool: PostgresPool): ConnectionTarget {
  const options = (pool as { options?: Record<string, unknown> }).options;
  if (options === undefined) return { target: 'the server of the given pool' };
  if (typeof options.connectionString === 'string') {
    return describeConnectionString(options.connectionString);
  }
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  const database = text(options.database);
  const user = text(options.user);
  return {
    target: `${text(options.host) ?? process.env.PGHOST ?? 'localhost'}:${text(options.port) ?? process.env.PGPORT ?? '5432'}`,
    ...(database === undefined ? {} : { database }),
    ...(user === undefined ? {} : { user }),
  };
}

/** Socket errors and SQLSTATEs that mean "no usable connection", not a failing query. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT',
  '3D000', // invalid_catalog_name: the database does not exist
  '57P01', // admin_shutdown: the server is shutting down (a restart) and ended the connection
  '57P02', // crash_shutdown: the server is restarting after a crash
  '57P03', // cannot_connect_now: the server is starting or shutting down
  '53300', // too_many_connections
]);

/** True for an error of opening a connection (refused, DNS, timeout, authentication, no database). */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('28')))
    return true;
  const message = String((error as { message?: unknown }).message ?? '');
  return /timeout expired|connection terminated|connection timeout/i.test(message);
}

/** `error` (from opening a connection to `target`) as a DatabaseConnectionError. */
export function connectionError(error: unknown, target: ConnectionTarget): DatabaseConnectionError {
  const errors = (error as { errors?: unknown }).errors;
  // Node reports one error per address tried (127.0.0.1 and ::1) in an AggregateError.
  const first = Array.isArray(errors) && errors.length > 0 ? errors[0] : error;
  const message = String((first as { message?: unknown })?.message ?? error) || 'connection failed';
  return new DatabaseConnectionError({ ...target, detail: message, cause: error });
}

/**
 * Takes a connection from `pool`, turning a failure to connect into a DatabaseConnectionError. A
 * server that refuses new connections for now (too many clients, or starting up) is asked again,
 * after 50, 100, 200… ms, for up to `busyWaitMs`: many workers at `max_connections` wait their turn
 * instead of failing their runs' steps.
 */
export async function connect(
  pool: PostgresPool,
  target: ConnectionTarget,
  busyWaitMs = 0,
): Promise<PostgresPoolClient> {
  const deadline = Date.now() + busyWaitMs;
  let delayMs = 50;
  for (;;) {
    try {
      return await pool.connect();
    } catch (error) {
      // Opening a connection is all `connect()` does; only a closed pool is the caller's own doing.
      if (/after calling end/i.test(String((error as Error)?.message))) throw error;
      if (!isServerBusy(error) || Date.now() + delayMs > deadline) {
        throw connectionError(error, target);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 1_000);
  }
}

/** SQLSTATEs of a server that refuses a connection for now: too many clients, starting up. */
const SERVER_BUSY_CODES = new Set(['53300', '57P03']);

/** True when the server refused a new connection for now (`max_connections`, a role's limit, starting up). */
export function isServerBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SERVER_BUSY_CODES.has(code);
}
