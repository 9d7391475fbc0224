import type { ReplayResult } from '../runs/run-journal';
import type { AgentState } from '../runs/agent-state';
import type {
  JournalEntry,
  NestedModule,
  OpenCall,
  RunExperiment,
  RunStatus,
} from '../runs/run-store';
import { prepared, type PostgresQueryable } from './postgres-connection';
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
  /** RunHeader.labels (schema version 3). */
  labels: Record<string, string> | null;
  /** Absent in rows read before the column existed (a query naming columns); null when unset. */
  experiment?: RunExperiment | null;
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

/**
 * `readRun`'s statement (parameter: the run id): the run's row with its latest checkpoint and the
 * journal entries after it, as one row. @internal
 */
export function readRunStatement(tables: SchemaTables): string {
  return `SELECT r.*, c.checkpoint, c.entries
     FROM ${tables.runs} r
     LEFT JOIN LATERAL (
       SELECT json_build_object('covers_seq', cp.covers_seq, 'state', cp.state,
                'attempts', cp.attempts, 'open_calls', cp.open_calls, 'status', cp.status) AS checkpoint,
              (SELECT COALESCE(json_agg(json_build_array(j.seq, j.entry) ORDER BY j.seq), '[]'::json)
                 FROM ${tables.journal} j
                WHERE j.run_id = r.run_id AND j.seq > cp.covers_seq) AS entries
         FROM ${tables.checkpoints} cp
        WHERE cp.run_id = r.run_id
        ORDER BY cp.covers_seq DESC
        LIMIT 1
     ) c ON true
    WHERE r.run_id = $1`;
}

/**
 * Reads and replays one run (no nested runs); undefined when there is no such run. One statement
 * (one round trip, one snapshot): the run's row with its latest checkpoint and the journal entries
 * after it, prepared once per connection (issue 31).
 */
export async function readRun(
  client: PostgresQueryable,
  tables: SchemaTables,
  runId: string,
): Promise<ReadRun | undefined> {
  const result = await client.query(prepared(readRunStatement(tables), [runId]));
  const found = result.rows[0] as
    | (RunRow & {
        checkpoint: {
          covers_seq: string | number;
          state: AgentState;
          attempts: Record<string, number>;
          open_calls: OpenCall[];
          status: RunStatus;
        } | null;
        entries: Array<[string | number, JournalEntry]> | null;
      })
    | undefined;
  if (found === undefined || found.checkpoint === null) return undefined;
  const { checkpoint, entries: journal, ...row } = found;
  const coversSeq = Number(checkpoint.covers_seq);
  const rows = journal ?? [];
  const replay = replayFromCheckpoint(
    {
      coversSeq,
      state: checkpoint.state,
      attempts: checkpoint.attempts,
      openCalls: checkpoint.open_calls,
      status: checkpoint.status,
    },
    rows.map((journalRow) => journalRow[1]),
  );
  const last = rows[rows.length - 1];
  return { row, replay, coversSeq, lastSeq: last === undefined ? coversSeq : Number(last[0]) };
}

/** True when a node of `state` names nested runs stored on their own (`metadata.nestedRunIds`). */
export function hasNestedRuns(state: AgentState): boolean {
  return state.nodes.some((node) => {
    const ids = node.metadata.nestedRunIds;
    return Array.isArray(ids) && ids.length > 0;
  });
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
