import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

/**
 * The PostgreSQL the tests use (issue 18 item 5), never a mock: `IDEACT_TEST_DATABASE_URL` when set;
 * else `postgres://postgres@127.0.0.1:5432/test` when it answers; else a throwaway cluster started by
 * scripts/pg-start.mjs (the same code as `npm run pg:start`; it stays up for later test files until
 * `npm run pg:stop`). When none is possible the tests fail, saying how to provide one: no silent skip.
 */

/** The URL tried when IDEACT_TEST_DATABASE_URL is not set. */
export const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

const ROOT = path.join(__dirname, '..', '..');
const HOW_TO_PROVIDE =
  'The PostgreSQL tests need a database. Provide one of: IDEACT_TEST_DATABASE_URL=postgres://user:password@host:port/database; ' +
  `a PostgreSQL answering at ${LOCAL_DATABASE_URL} (trust auth for user postgres, database test); ` +
  'or the PostgreSQL server binaries (initdb, pg_ctl, postgres on PATH or in /usr/lib/postgresql/*/bin), ' +
  'so that `npm run pg:start` can start a throwaway one.';

/** Why `url` does not answer, or undefined when it does (a connection and `SELECT 1`). */
async function probe(url: string, timeoutMs: number): Promise<string | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || String(error) : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Starts (or reuses) the throwaway cluster through scripts/pg-start.mjs; its URL. */
async function throwawayCluster(): Promise<string> {
  const script = path.join(ROOT, 'scripts', 'pg-start.mjs');
  let output: string;
  try {
    ({ stdout: output } = await promisify(execFile)(process.execPath, [script, '--json'], {
      cwd: ROOT,
      timeout: 120_000,
    }));
  } catch (error) {
    output = (error as { stdout?: string }).stdout ?? '';
    if (output === '') throw new Error(`${HOW_TO_PROVIDE}\npg:start failed: ${String(error)}`);
  }
  const reply = JSON.parse(output.trim().split('\n').pop() ?? '{}') as {
    url?: string;
    error?: string;
  };
  if (reply.url === undefined) {
    throw new Error(`${HOW_TO_PROVIDE}\npg:start could not start one: ${reply.error ?? output}`);
  }
  return reply.url;
}

let resolved: Promise<string> | undefined;

/** The test database's URL, found once per test file (see the file's comment for the order). */
export function testDatabaseUrl(): Promise<string> {
  resolved ??= (async () => {
    const configured = process.env.IDEACT_TEST_DATABASE_URL;
    if (configured !== undefined && configured !== '') {
      const problem = await probe(configured, 10_000);
      if (problem !== undefined) {
        throw new Error(
          `IDEACT_TEST_DATABASE_URL does not answer (${problem}). Fix it, or unset it to use ` +
            `${LOCAL_DATABASE_URL} or a throwaway cluster (npm run pg:start).`,
        );
      }
      return configured;
    }
    if ((await probe(LOCAL_DATABASE_URL, 3_000)) === undefined) return LOCAL_DATABASE_URL;
    return throwawayCluster();
  })();
  return resolved;
}

/** A test file's own schema in the test database. */
export interface TestDatabase {
  /** The database URL (set in `beforeAll`). */
  readonly url: string;
  /** The file's own schema: a random name, dropped (with everything in it) after the file. */
  readonly schema: string;
  /** A fresh random schema name (also dropped after the file), for tests that need a second one. */
  newSchema(): string;
  /** Runs SQL on the test database (to look at what a store wrote). */
  query<TRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<TRow[]>;
}

/** A random schema name; lower case, so SQL can name it unquoted. */
function randomSchema(): string {
  return `ideact_test_${randomBytes(6).toString('hex')}`;
}

/**
 * Call at the top level of a test file: finds the database before the file's tests (failing them
 * all when there is none) and drops the file's schemas after them.
 */
export function databaseForThisFile(): TestDatabase {
  const schemas = [randomSchema()];
  let url: string | undefined;
  let admin: Client | undefined;
  beforeAll(async () => {
    url = await testDatabaseUrl();
    admin = new Client({ connectionString: url });
    admin.on('error', () => undefined);
    await admin.connect();
  }, 150_000);
  afterAll(async () => {
    if (admin === undefined) return;
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  return {
    get url() {
      if (url === undefined)
        throw new Error('databaseForThisFile(): the database is set in beforeAll');
      return url;
    },
    schema: schemas[0] as string,
    newSchema() {
      const schema = randomSchema();
      schemas.push(schema);
      return schema;
    },
    async query<TRow>(text: string, values?: unknown[]) {
      if (admin === undefined) throw new Error('databaseForThisFile(): used before beforeAll');
      return (await admin.query(text, values)).rows as TRow[];
    },
  };
}
