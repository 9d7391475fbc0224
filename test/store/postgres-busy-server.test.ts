import { randomBytes } from 'node:crypto';
import { DatabaseConnectionError, PostgresRunStore } from 'ideact';
import { Client } from 'pg';
import { databaseForThisFile } from '../support/test-database';

/**
 * Issue 31 item 5: many workers at the server's connection limit. A server that refuses new
 * connections for now (SQLSTATE 53300: `max_connections` or the role's limit reached) is asked
 * again within `connectionTimeoutMs`, so a step waits for a connection instead of failing its run
 * (8 workers on a `max_connections` of 100 failed 35–44 of 300 runs with DatabaseConnectionError).
 * The limit here is a role's `CONNECTION LIMIT 1`, held by another connection of the same role.
 */
const database = databaseForThisFile();
const role = `ideact_busy_${randomBytes(4).toString('hex')}`;
let roleUrl: string;
/** This file's own admin connection: the role outlives the schemas databaseForThisFile drops. */
let admin: Client;
const opened: Array<{ close(): Promise<void> } | Client> = [];

beforeAll(async () => {
  admin = new Client({ connectionString: database.url });
  await admin.connect();
  const databaseName = new URL(database.url).pathname.slice(1);
  await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
  await admin.query(`GRANT CREATE ON DATABASE "${databaseName}" TO ${role}`);
  const url = new URL(database.url);
  url.username = role;
  url.password = '';
  roleUrl = url.toString();
});

afterAll(async () => {
  for (const resource of opened) {
    await ('end' in resource ? resource.end() : resource.close()).catch(() => undefined);
  }
  // The role's schemas and its grant, then the role (a cluster-wide object).
  await admin.query(`DROP OWNED BY ${role} CASCADE`);
  await admin.query(`DROP ROLE ${role}`);
  await admin.end();
});

/** A connection of the limited role, holding its only slot until ended. */
async function holdTheSlot(): Promise<Client> {
  const client = new Client({ connectionString: roleUrl });
  client.on('error', () => undefined);
  await client.connect();
  opened.push(client);
  return client;
}

function storeOfTheRole(connectionTimeoutMs: number): PostgresRunStore {
  const store = new PostgresRunStore({
    connectionString: roleUrl,
    schema: database.newSchema(),
    connectionTimeoutMs,
  });
  opened.push(store);
  return store;
}

describe('PostgresRunStore when the server has no connection to spare', () => {
  it('waits for one: the store reads once the other connection ends', async () => {
    const holder = await holdTheSlot();
    const store = storeOfTheRole(10_000);
    const started = Date.now();
    const listed = store.list();
    let settled = false;
    void listed.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(settled).toBe(false);
    await holder.end();
    await expect(listed).resolves.toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await store.close(); // its pool holds the role's one connection
  });

  it('fails with DatabaseConnectionError naming the refusal once connectionTimeoutMs has passed', async () => {
    const holder = await holdTheSlot();
    const store = storeOfTheRole(600);
    const started = Date.now();
    const error = await store.list().catch((caught: unknown) => caught);
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(DatabaseConnectionError);
    expect((error as DatabaseConnectionError).message).toMatch(/too many connections/i);
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(5_000);
    await holder.end();
  });
});
