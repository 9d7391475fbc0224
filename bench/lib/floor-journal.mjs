/**
 * The run journal of `bench/dbos-floor.mjs dbos --contracts`, written through raw `pg`: the tables
 * (PostgresRunStore's own migration), the statement texts (its `appendStatement` and
 * `readRunStatement`, taken from the build so the floor sends exactly the store's statements) and
 * the entry sizes the short run of bench/ideact-workers.mjs writes, so the contract floor pays for
 * the journal's writes and nothing else of ideact's (no agent, no replay, no run store object).
 */
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './ideact-package.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require(path.join(ROOT, 'node_modules', 'pg'));
const { migrate, schemaTables } = require(path.join(ROOT, 'dist', 'store', 'postgres-schema.js'));
const { appendStatement } = require(path.join(ROOT, 'dist', 'store', 'postgres-run-statements.js'));
const { readRunStatement } = require(path.join(ROOT, 'dist', 'store', 'postgres-run-rows.js'));

/** Bytes of each entry a short run appends, as logged from ideact's workers (issue 31). */
export const ENTRY_BYTES = {
  prompter: 260,
  discriminator: 600,
  actor: 700,
  done: 470,
  start: 82,
  result: 624,
};

/** PostgresRunStore's tables in `schema`, by its own migration (`migrate` of dist/store/postgres-schema.js). */
export async function createJournalTables(client, schema) {
  await migrate(client, schema);
}

/** A JSON entry of `type` padded to `bytes` once serialized. */
export function sizedEntry(type, bytes, fields = {}) {
  const entry = { type, time: new Date().toISOString(), ...fields, text: '' };
  const missing = bytes - Buffer.byteLength(JSON.stringify(entry));
  entry.text = 'x'.repeat(Math.max(0, missing));
  return entry;
}

/** The commits one model turn appends (the last turn's answer adds the run's done commit). */
export function modelTurnEntries(last) {
  const entries = [
    sizedEntry('commit', ENTRY_BYTES.prompter, { status: 'running' }),
    sizedEntry('commit', ENTRY_BYTES.discriminator, { status: 'running' }),
    sizedEntry('commit', ENTRY_BYTES.actor, { status: 'running' }),
  ];
  if (last) entries.push(sizedEntry('commit', ENTRY_BYTES.done, { status: 'completed' }));
  return entries;
}

/**
 * The journal store of one worker process: a pool of 10 connections committing with
 * `synchronous_commit = off` (PostgresRunStore's default `sync: 'batch'`), prepared statements.
 */
export function journalStore(connectionString, schema) {
  const tables = schemaTables(schema);
  const pool = new Pool({
    connectionString,
    max: 10,
    options: '-c synchronous_commit=off',
  });
  pool.on('error', () => undefined);
  return {
    /** The run's row and first checkpoint in one transaction, as `create` before an enqueue. */
    async createRun(runId, task) {
      const client = await pool.connect();
      try {
        const now = new Date().toISOString();
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO ${tables.runs} (run_id, task, status, created_at, updated_at)
           VALUES ($1, $2, 'running', $3, $3) ON CONFLICT (run_id) DO NOTHING`,
          [runId, task, now],
        );
        const state = sizedEntry('state', 420, { nodes: [], nextStep: { module: 'prompter' } });
        await client.query(
          `INSERT INTO ${tables.checkpoints} (run_id, covers_seq, state, attempts, open_calls, status)
           VALUES ($1, 0, $2::jsonb, '{}'::jsonb, '[]'::jsonb, 'running')`,
          [runId, JSON.stringify(state)],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    /** The run's row, latest checkpoint and the entries past it, in PostgresRunStore's one query. */
    async loadRun(runId) {
      const result = await pool.query({
        name: 'floor-load',
        text: readRunStatement(tables),
        values: [runId],
      });
      if (result.rows.length !== 1) throw new Error(`run ${runId} is not in the journal`);
      return result.rows[0];
    },
    /** `entries` and the run's counters in one prepared statement (PostgresRunStore's `append`). */
    async append(runId, entries) {
      let status = null;
      let commits = 0;
      for (const entry of entries) {
        if (entry.type === 'commit') {
          status = entry.status;
          commits += 1;
        }
      }
      const values = [
        runId,
        status,
        commits > 0,
        null,
        commits,
        entries[entries.length - 1].time,
        ...entries.map((entry) => JSON.stringify(entry)),
      ];
      const result = await pool.query({
        name: `floor-append-${entries.length}`,
        text: appendStatement(tables, entries.length),
        values,
      });
      if (result.rows.length !== 1) throw new Error(`run ${runId} is not in the journal`);
    },
    /** Ends the pool. */
    close: () => pool.end(),
  };
}
