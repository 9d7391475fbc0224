import type { PostgresQueryable } from './postgres-connection';

/**
 * The PostgresRunStore's tables and the migration it runs itself on first use: every version's DDL
 * in order, applied in one transaction under an advisory lock (two processes starting at once
 * migrate once), with the version reached kept in `schema_version` so later versions add steps.
 */

/** The schema (PostgreSQL namespace) a store uses unless told otherwise. */
export const DEFAULT_SCHEMA = 'ideact';

/** Table names (inside the store's schema), quoted and qualified once. */
export interface SchemaTables {
  schema: string;
  runs: string;
  journal: string;
  checkpoints: string;
  events: string;
  version: string;
}

/** A name as a quoted SQL identifier (`"my ""odd"" name"`). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The qualified, quoted names of the store's tables in `schema`. */
export function schemaTables(schema: string): SchemaTables {
  const qualified = (table: string): string =>
    `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
  return {
    schema: quoteIdentifier(schema),
    runs: qualified('runs'),
    journal: qualified('journal_entries'),
    checkpoints: qualified('checkpoints'),
    events: qualified('run_events'),
    version: qualified('schema_version'),
  };
}

/**
 * The migrations, by version: `MIGRATIONS[n]` takes the schema from version n to n + 1. Never edit a
 * released step (databases already ran it); add the next one.
 */
const MIGRATIONS: ReadonlyArray<(tables: SchemaTables) => string[]> = [
  (t) => [
    // One row per run; nested runs point at their parent. `position` orders runs created in the same ms.
    `CREATE TABLE ${t.runs} (
       run_id text PRIMARY KEY,
       parent_run_id text,
       parent_call_id text,
       task text,
       status text NOT NULL,
       stop_reason text,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       position bigserial NOT NULL,
       commits_since_checkpoint integer NOT NULL DEFAULT 0
     )`,
    `CREATE INDEX ON ${t.runs} (parent_run_id, created_at DESC, position DESC)`,
    `CREATE INDEX ON ${t.runs} (created_at DESC, position DESC)`,
    // The journal: entries of a run in `seq` order (appends to one run are serialized by a row lock).
    `CREATE TABLE ${t.journal} (
       seq bigserial PRIMARY KEY,
       run_id text NOT NULL REFERENCES ${t.runs} (run_id) ON DELETE CASCADE,
       entry jsonb NOT NULL
     )`,
    `CREATE INDEX ON ${t.journal} (run_id, seq)`,
    // The state after every entry up to `covers_seq` (0: the state the run was created with).
    `CREATE TABLE ${t.checkpoints} (
       run_id text NOT NULL REFERENCES ${t.runs} (run_id) ON DELETE CASCADE,
       covers_seq bigint NOT NULL,
       state jsonb NOT NULL,
       attempts jsonb NOT NULL,
       open_calls jsonb NOT NULL,
       status text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (run_id, covers_seq)
     )`,
  ],
  // A nested run a worker executes as a child workflow names its module (RunHeader.nestedModule).
  (t) => [`ALTER TABLE ${t.runs} ADD COLUMN nested_module jsonb`],
  // Served runs (issue 32): the header's labels (owner, agent) and the events the handler streamed.
  (t) => [
    `ALTER TABLE ${t.runs} ADD COLUMN labels jsonb`,
    `CREATE TABLE ${t.events} (
       run_id text NOT NULL REFERENCES ${t.runs} (run_id) ON DELETE CASCADE,
       seq bigint NOT NULL,
       event jsonb NOT NULL,
       PRIMARY KEY (run_id, seq)
     )`,
  ],
  // A run an eval started names its experiment, case and trial (RunHeader.experiment, issue 33; version 4).
  (t) => [`ALTER TABLE ${t.runs} ADD COLUMN experiment jsonb`],
  // The commits the latest checkpoint covers, so checkpoints are spaced geometrically (issue 31; version 5).
  (t) => [`ALTER TABLE ${t.runs} ADD COLUMN checkpoint_commits integer NOT NULL DEFAULT 0`],
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings `schema` to {@link SCHEMA_VERSION} (creating it when missing) on `client`, in one
 * transaction; concurrent callers wait on the advisory lock, then find nothing left to do. A
 * database migrated by a newer ideact is left alone.
 */
export async function migrate(client: PostgresQueryable, schema: string): Promise<void> {
  const tables = schemaTables(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `ideact.run-store:${schema}`,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${tables.schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${tables.version} (
         singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
         version integer NOT NULL
       )`,
    );
    const found = await client.query(`SELECT version FROM ${tables.version}`);
    const current = (found.rows[0] as { version: number } | undefined)?.version ?? 0;
    for (const step of MIGRATIONS.slice(current)) {
      for (const statement of step(tables)) await client.query(statement);
    }
    if (current < SCHEMA_VERSION) {
      await client.query(
        `INSERT INTO ${tables.version} (singleton, version) VALUES (true, $1)
         ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version`,
        [SCHEMA_VERSION],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
