/**
 * The run journal of `bench/dbos-floor.mjs dbos --contracts`, in raw `pg`, without ideact's code: the
 * tables, statements and entry sizes PostgresRunStore uses for the short run of
 * bench/ideact-workers.mjs, so the contract floor pays for the journal's writes and nothing else.
 */
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './ideact-package.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require(path.join(ROOT, 'node_modules', 'pg'));

/** Bytes of each entry a short run appends, as logged from ideact's workers (issue 31). */
export const ENTRY_BYTES = {
  prompter: 260,
  discriminator: 600,
  actor: 700,
  done: 470,
  start: 82,
  result: 624,
};

/** PostgresRunStore's tables (runs, journal, checkpoints) with its columns and indexes. */
export async function createJournalTables(client, schema) {
  const s = `"${schema}"`;
  for (const statement of [
    `CREATE SCHEMA ${s}`,
    `CREATE TABLE ${s}.runs (
       run_id text PRIMARY KEY, parent_run_id text, parent_call_id text, task text,
       status text NOT NULL, stop_reason text, created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL, position bigserial NOT NULL,
       commits_since_checkpoint integer NOT NULL DEFAULT 0, nested_module jsonb, labels jsonb,
       experiment jsonb, checkpoint_commits integer NOT NULL DEFAULT 0)`,
    `CREATE INDEX ON ${s}.runs (parent_run_id, created_at DESC, position DESC)`,
    `CREATE INDEX ON ${s}.runs (created_at DESC, position DESC)`,
    `CREATE TABLE ${s}.journal (
       seq bigserial PRIMARY KEY,
       run_id text NOT NULL REFERENCES ${s}.runs (run_id) ON DELETE CASCADE,
       entry jsonb NOT NULL)`,
    `CREATE INDEX ON ${s}.journal (run_id, seq)`,
    `CREATE TABLE ${s}.checkpoints (
       run_id text NOT NULL REFERENCES ${s}.runs (run_id) ON DELETE CASCADE,
       covers_seq bigint NOT NULL, state jsonb NOT NULL, attempts jsonb NOT NULL,
       open_calls jsonb NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (run_id, covers_seq))`,
  ]) {
    await client.query(statement);
  }
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
  const s = `"${schema}"`;
  const pool = new Pool({
    connectionString,
    max: 10,
    options: '-c synchronous_commit=off',
  });
  pool.on('error', () => undefined);
  const appendText = (count) => {
    const rows = Array.from({ length: count }, (_, index) => `($${index + 7}::jsonb)`);
    return `WITH run AS (
         UPDATE ${s}.runs
            SET status = COALESCE($2, status),
                stop_reason = CASE WHEN $3::boolean THEN $4 ELSE stop_reason END,
                commits_since_checkpoint = commits_since_checkpoint + $5,
                updated_at = GREATEST(updated_at, $6::timestamptz)
          WHERE run_id = $1
          RETURNING commits_since_checkpoint, checkpoint_commits
       ), inserted AS (
         INSERT INTO ${s}.journal (run_id, entry)
         SELECT $1, entries.entry FROM (VALUES ${rows.join(', ')}) AS entries(entry)
          WHERE EXISTS (SELECT 1 FROM run)
       )
       SELECT commits_since_checkpoint, checkpoint_commits FROM run`;
  };
  return {
    /** The run's row and first checkpoint in one transaction, as `create` before an enqueue. */
    async createRun(runId, task) {
      const client = await pool.connect();
      try {
        const now = new Date().toISOString();
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO ${s}.runs (run_id, task, status, created_at, updated_at)
           VALUES ($1, $2, 'running', $3, $3) ON CONFLICT (run_id) DO NOTHING`,
          [runId, task, now],
        );
        const state = sizedEntry('state', 420, { nodes: [], nextStep: { module: 'prompter' } });
        await client.query(
          `INSERT INTO ${s}.checkpoints (run_id, covers_seq, state, attempts, open_calls, status)
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
        text: `SELECT r.*, c.checkpoint, c.entries
                 FROM ${s}.runs r
                 LEFT JOIN LATERAL (
                   SELECT json_build_object('covers_seq', cp.covers_seq, 'state', cp.state,
                            'attempts', cp.attempts, 'open_calls', cp.open_calls, 'status', cp.status) AS checkpoint,
                          (SELECT COALESCE(json_agg(json_build_array(j.seq, j.entry) ORDER BY j.seq), '[]'::json)
                             FROM ${s}.journal j
                            WHERE j.run_id = r.run_id AND j.seq > cp.covers_seq) AS entries
                     FROM ${s}.checkpoints cp
                    WHERE cp.run_id = r.run_id
                    ORDER BY cp.covers_seq DESC
                    LIMIT 1
                 ) c ON true
                WHERE r.run_id = $1`,
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
        text: appendText(entries.length),
        values,
      });
      if (result.rows.length !== 1) throw new Error(`run ${runId} is not in the journal`);
    },
    /** Ends the pool. */
    close: () => pool.end(),
  };
}
