import type {
  JournalEntry,
  RunFilter,
  RunHeader,
  RunSummary,
  StoredRun,
  StoredRunEvent,
} from '../runs/run-store';
import { stopReasonOf } from './postgres-replay';
import type { ReadRun, RunRow } from './postgres-run-rows';
import type { SchemaTables } from './postgres-schema';

/**
 * The SQL text PostgresRunStore sends and the rows it reads back, as pure functions (no I/O), so the
 * store's file holds the connections, transactions and the order of its writes.
 */

/** A run row's checkpoint counters. @internal */
export interface CheckpointCounters {
  commits_since_checkpoint: number;
  checkpoint_commits: number;
}

/** What appended entries set on their run's row. @internal */
export interface EntriesEffect {
  /** The last commit's or status entry's status (null: none of them). */
  status: string | null;
  commitSeen: boolean;
  /** The last commit's stop reason. */
  stopReason: string | null;
  /** How many commits. */
  commits: number;
}

/** What `entries` set on their run's row, folded in order (the last status and commit win). @internal */
export function effectOfEntries(entries: readonly JournalEntry[]): EntriesEffect {
  const effect: EntriesEffect = { status: null, commitSeen: false, stopReason: null, commits: 0 };
  for (const entry of entries) {
    if (entry.type === 'commit') {
      effect.status = entry.status;
      effect.commitSeen = true;
      effect.stopReason = stopReasonOf(entry);
      effect.commits += 1;
    } else if (entry.type === 'status') {
      effect.status = entry.status;
    }
  }
  return effect;
}

/**
 * `append`'s one statement for `count` entries: the run's row updated (status, stop reason,
 * counters, time) and the entries inserted only if it exists, returning the checkpoint counters.
 * Parameters: run id, status, whether a commit was seen, stop reason, commits, time, then the
 * entries as JSON. @internal
 */
export function appendStatement(tables: SchemaTables, count: number): string {
  const rows = Array.from({ length: count }, (_entry, index) => `($${index + 7}::jsonb)`);
  return `WITH run AS (
       UPDATE ${tables.runs}
          SET status = COALESCE($2, status),
              stop_reason = CASE WHEN $3::boolean THEN $4 ELSE stop_reason END,
              commits_since_checkpoint = commits_since_checkpoint + $5,
              updated_at = GREATEST(updated_at, $6::timestamptz)
        WHERE run_id = $1
        RETURNING commits_since_checkpoint, checkpoint_commits
     ), inserted AS (
       INSERT INTO ${tables.journal} (run_id, entry)
       SELECT $1, entries.entry FROM (VALUES ${rows.join(', ')}) AS entries(entry)
        WHERE EXISTS (SELECT 1 FROM run)
     )
     SELECT commits_since_checkpoint, checkpoint_commits FROM run`;
}

/** The `runs` query of `list(filter)`: newest first, filtered by status, parent, labels, experiment. @internal */
export function listQuery(
  tables: SchemaTables,
  filter: RunFilter,
): { text: string; values: unknown[] } {
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (filter.status !== undefined) {
    values.push(Array.isArray(filter.status) ? filter.status : [filter.status]);
    conditions.push(`status = ANY($${values.length}::text[])`);
  }
  if (filter.parentRunId === null) conditions.push('parent_run_id IS NULL');
  else if (filter.parentRunId !== undefined) {
    values.push(filter.parentRunId);
    conditions.push(`parent_run_id = $${values.length}`);
  }
  if (filter.labels !== undefined) {
    values.push(JSON.stringify(filter.labels));
    conditions.push(`labels @> $${values.length}::jsonb`);
  }
  if (filter.experiment !== undefined) {
    values.push(filter.experiment);
    conditions.push(`experiment->>'id' = $${values.length}`);
  }
  let limit = '';
  if (filter.limit !== undefined) {
    values.push(Math.max(0, Math.floor(filter.limit)));
    limit = `LIMIT $${values.length}`;
  }
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  return {
    text: `SELECT * FROM ${tables.runs} ${where} ORDER BY created_at DESC, position DESC ${limit}`,
    values,
  };
}

/** One statement inserting a served run's events (a `seq` the run has already conflicts). @internal */
export function eventsInsert(
  tables: SchemaTables,
  runId: string,
  events: readonly StoredRunEvent[],
): { text: string; values: unknown[] } {
  const rows = events.map((_event, index) => `($1, $${2 * index + 2}, $${2 * index + 3}::jsonb)`);
  const values: unknown[] = [runId];
  for (const { seq, event } of events) values.push(seq, JSON.stringify(event));
  return {
    text: `INSERT INTO ${tables.events} (run_id, seq, event) VALUES ${rows.join(', ')}`,
    values,
  };
}

/** A `runs` row as a RunSummary. @internal */
export function summaryOf(row: RunRow): RunSummary {
  return {
    ...headerOf(row),
    status: row.status,
    ...(row.stop_reason === null ? {} : { stopReason: row.stop_reason }),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A run as `readRun` read and replayed it, as the store's `load` returns it. @internal */
export function storedRunOf(found: ReadRun): StoredRun {
  return {
    header: headerOf(found.row),
    status: found.replay.status,
    state: found.replay.state,
    attempts: found.replay.attempts,
    openCalls: found.replay.openCalls,
  };
}

/** A `runs` row as a RunHeader. @internal */
export function headerOf(row: RunRow): RunHeader {
  return {
    runId: row.run_id,
    ...(row.parent_run_id === null ? {} : { parentRunId: row.parent_run_id }),
    ...(row.parent_call_id === null ? {} : { parentCallId: row.parent_call_id }),
    ...(row.task === null ? {} : { task: row.task }),
    createdAt: row.created_at.toISOString(),
    ...(row.nested_module === null ? {} : { nestedModule: row.nested_module }),
    ...(row.labels === null || row.labels === undefined ? {} : { labels: row.labels }),
    ...(row.experiment === null || row.experiment === undefined
      ? {}
      : { experiment: row.experiment }),
  };
}

/** A string as an SQL literal (standard-conforming strings, PostgreSQL's default since 9.1). @internal */
export function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
