import type { ReplayResult } from '../runtime/loop/run-journal';
import type { AgentState } from '../runtime/loop/agent-state';
import type { JournalEntry, NestedModule, OpenCall, RunStatus } from '../runtime/run-store';
import type { PostgresQueryable } from './postgres-connection';
import { replayFromCheckpoint } from './postgres-replay';
import type { SchemaTables } from './postgres-schema';

/**
 * The PostgresRunStore's journal and checkpoint rows: writing entries, reading a run back (its
 * `runs` row, latest checkpoint and the journal after it, replayed), compacting the journal into a
 * checkpoint, and putting nested runs (stored as runs of their own, named by
 * `metadata.nestedRunIds`) back into `metadata.nested`, as an in-memory state holds them.
 */

/** A row of the `runs` table. */
export interface RunRow {
  run_id: string;
  parent_run_id: string | null;
  parent_call_id: string | null;
  task: string | null;
  /** RunHeader.nestedModule (schema version 2). */
  nested_module: NestedModule | null;
  status: RunStatus;
  stop_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A run as read: its row, the replayed state, and which journal rows the replay covered. */
export interface ReadRun {
  row: RunRow;
  replay: ReplayResult;
  /** The checkpoint's `covers_seq`. */
  coversSeq: number;
  /** The last journal entry's `seq` (the checkpoint's when no entry follows it). */
  lastSeq: number;
}

/** Reads and replays one run (no nested runs); undefined when there is no such run. */
export async function readRun(
  client: PostgresQueryable,
  tables: SchemaTables,
  runId: string,
): Promise<ReadRun | undefined> {
  const runs = await client.query(`SELECT * FROM ${tables.runs} WHERE run_id = $1`, [runId]);
  const row = runs.rows[0] as RunRow | undefined;
  if (row === undefined) return undefined;
  const checkpoints = await client.query(
    `SELECT covers_seq, state, attempts, open_calls, status FROM ${tables.checkpoints}
      WHERE run_id = $1 ORDER BY covers_seq DESC LIMIT 1`,
    [runId],
  );
  const checkpoint = checkpoints.rows[0] as
    | {
        covers_seq: string;
        state: AgentState;
        attempts: Record<string, number>;
        open_calls: OpenCall[];
        status: RunStatus;
      }
    | undefined;
  if (checkpoint === undefined) return undefined;
  const coversSeq = Number(checkpoint.covers_seq);
  const journal = await client.query(
    `SELECT seq, entry FROM ${tables.journal} WHERE run_id = $1 AND seq > $2 ORDER BY seq`,
    [runId, coversSeq],
  );
  const rows = journal.rows as Array<{ seq: string; entry: JournalEntry }>;
  const replay = replayFromCheckpoint(
    {
      coversSeq,
      state: checkpoint.state,
      attempts: checkpoint.attempts,
      openCalls: checkpoint.open_calls,
      status: checkpoint.status,
    },
    rows.map((journalRow) => journalRow.entry),
  );
  const last = rows[rows.length - 1];
  return { row, replay, coversSeq, lastSeq: last === undefined ? coversSeq : Number(last.seq) };
}

/**
 * Replaces `metadata.nestedRunIds` of `state`'s nodes by the nested runs' loaded states
 * (`metadata.nested`), recursively. A node whose nested runs are not all in the store (deleted on
 * their own) keeps its `nestedRunIds`; `seen` stops a cycle of ids.
 */
export async function rehydrateNested(
  client: PostgresQueryable,
  tables: SchemaTables,
  state: AgentState,
  seen: Set<string>,
): Promise<void> {
  for (const node of state.nodes) {
    const ids = node.metadata.nestedRunIds;
    if (!Array.isArray(ids) || ids.length === 0) continue;
    const nested: AgentState[] = [];
    for (const id of ids) {
      if (typeof id !== 'string' || seen.has(id)) break;
      const found = await readRun(client, tables, id);
      if (found === undefined) break;
      await rehydrateNested(client, tables, found.replay.state, new Set([...seen, id]));
      nested.push(found.replay.state);
    }
    if (nested.length !== ids.length) continue;
    delete node.metadata.nestedRunIds;
    node.metadata.nested = nested;
  }
}

/** Journal rows for `entries`, in order (a statement per thousand, under the parameter limit). */
export async function insertEntries(
  client: PostgresQueryable,
  tables: SchemaTables,
  runId: string,
  entries: readonly JournalEntry[],
): Promise<void> {
  for (let start = 0; start < entries.length; start += 1000) {
    const batch = entries.slice(start, start + 1000);
    const rows = batch.map((_entry, index) => `($1, $${index + 2}::jsonb)`);
    await client.query(`INSERT INTO ${tables.journal} (run_id, entry) VALUES ${rows.join(', ')}`, [
      runId,
      ...batch.map((entry) => JSON.stringify(entry)),
    ]);
  }
}

/**
 * Compaction (inside the append's transaction, the run's row locked): the run's state as of its
 * last entry becomes a checkpoint; older checkpoints and the entries it covers are deleted.
 */
export async function writeCheckpoint(
  client: PostgresQueryable,
  tables: SchemaTables,
  runId: string,
): Promise<void> {
  const found = await readRun(client, tables, runId);
  if (found === undefined || found.lastSeq <= found.coversSeq) return;
  const { state, attempts, openCalls, status } = found.replay;
  await client.query(
    `INSERT INTO ${tables.checkpoints} (run_id, covers_seq, state, attempts, open_calls, status)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6)`,
    [
      runId,
      found.lastSeq,
      JSON.stringify(state),
      JSON.stringify(attempts),
      JSON.stringify(openCalls),
      status,
    ],
  );
  await client.query(`DELETE FROM ${tables.checkpoints} WHERE run_id = $1 AND covers_seq < $2`, [
    runId,
    found.lastSeq,
  ]);
  await client.query(`DELETE FROM ${tables.journal} WHERE run_id = $1 AND seq <= $2`, [
    runId,
    found.lastSeq,
  ]);
}
