import { pgDriver } from '../store/pg-driver';
import { connectionError, describeConnectionString } from '../store/postgres-connection';
import type { DbosSdk } from './dbos-sdk';

const pg = pgDriver;

/**
 * Creates or migrates DBOS's system tables in `schema`, one process at a time: DBOS's own
 * migration fails ("tuple concurrently updated") when two workers start on a fresh database at
 * once, so it runs under a PostgreSQL advisory lock; later callers find nothing left to do.
 * @internal
 */
export async function migrateSystemSchema(
  sdk: DbosSdk,
  databaseUrl: string,
  schema: string,
): Promise<void> {
  const client = new (pg().Client)({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  try {
    await client.connect();
    // Polled, not waited for in one statement: DBOS's CREATE INDEX CONCURRENTLY waits for every
    // running statement to end, a blocked pg_advisory_lock() included (a deadlock nobody detects).
    const key = `ideact.dbos-migrate:${schema}`;
    for (;;) {
      const taken = await client.query<{ taken: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS taken',
        [key],
      );
      if (taken.rows[0]?.taken === true) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectionError(error, describeConnectionString(databaseUrl));
  }
  try {
    await sdk.DBOS.migrate(databaseUrl, { schemaName: schema });
  } finally {
    await client.end().catch(() => undefined);
  }
}
