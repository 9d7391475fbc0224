import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { RunExistsError } from '../errors/run-exists.error';
import { RunNotFoundError } from '../errors/run-not-found.error';
import { statusOf } from '../runs/run-journal';
import type { AgentState } from '../runs/agent-state';
import type {
  JournalEntry,
  RunFilter,
  RunHeader,
  RunStore,
  RunSummary,
  StoredRun,
  StoredRunEvent,
} from '../runs/run-store';
import type { RunEvent } from '../runs/run-event';
import {
  connect,
  connectionError,
  createPool,
  describeConnectionString,
  describePool,
  isConnectionError,
  prepared,
  type ConnectionTarget,
  type PostgresPool,
  type PostgresPoolClient,
} from './postgres-connection';
import {
  hasNestedRuns,
  insertEntries,
  readRun,
  rehydrateNested,
  writeCheckpoint,
  type RunRow,
} from './postgres-run-rows';
import {
  appendStatement,
  effectOfEntries,
  eventsInsert,
  listQuery,
  sqlLiteral,
  storedRunOf,
  summaryOf,
  type CheckpointCounters,
} from './postgres-run-statements';
import { DEFAULT_SCHEMA, migrate, schemaTables, type SchemaTables } from './postgres-schema';
import { storedInitialState } from './postgres-replay';
import type { PostgresRunStoreOptions, PostgresRunStoreSync } from './postgres-run-store-options';

export type { PostgresRunStoreOptions, PostgresRunStoreSync } from './postgres-run-store-options';

/** Entries appended in one statement; more go through a transaction in batches. */
const MAX_ENTRIES_PER_STATEMENT = 500;

/** Commits between checkpoints unless `checkpointEvery` says otherwise. */
export const DEFAULT_CHECKPOINT_EVERY = 50;

/**
 * A {@link RunStore} in PostgreSQL (issue 18), for runs that outlive a process or a machine: one row
 * per run, its journal entries, and a checkpoint every `checkpointEvery` commits. Each `append` is one
 * atomic statement (one round trip); the store creates and migrates its tables itself. The `pg`
 * driver loads on first use.
 */
export class PostgresRunStore implements RunStore {
  private readonly pool: PostgresPool;
  private readonly ownsPool: boolean;
  private readonly schema: string;
  private readonly tables: SchemaTables;
  /** `append`'s statement text by entry count (at most MAX_ENTRIES_PER_STATEMENT of them). */
  private readonly appendStatements = new Map<number, string>();
  private readonly target: ConnectionTarget;
  private readonly connectionTimeoutMs: number;
  private readonly checkpointEvery: number;
  private readonly checkpointGrowth: number;
  private readonly sync: PostgresRunStoreSync;
  /** A run appended to since the last flush (`sync: 'batch'`): `flush` has something to wait for. */
  private unflushed?: string;
  private migrated?: Promise<void>;
  private closed = false;

  constructor(options: PostgresRunStoreOptions = {}) {
    this.schema = options.schema || DEFAULT_SCHEMA;
    this.tables = schemaTables(this.schema);
    this.checkpointEvery = Math.max(
      1,
      Math.floor(options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY),
    );
    this.checkpointGrowth = Math.max(0, options.checkpointGrowth ?? 0.5);
    this.sync = options.sync ?? 'batch';
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? 10_000;
    if (this.sync !== 'batch' && this.sync !== 'commit') {
      throw new ContainerConfigurationError({
        api: 'new PostgresRunStore',
        setting: 'sync',
        problem: `sync is ${JSON.stringify(this.sync)}`,
        solutions: [
          "sync: 'batch' (default): steps survive a killed process; flush() waits for the disk",
          "sync: 'commit': every append waits for the disk",
        ],
      });
    }
    if (options.pool === undefined) {
      this.pool = createPool(
        options.connectionString,
        this.connectionTimeoutMs,
        this.sync === 'batch',
      );
      this.ownsPool = true;
      this.target = describeConnectionString(options.connectionString);
    } else {
      this.pool = options.pool;
      this.ownsPool = false;
      this.target = describePool(options.pool);
    }
  }

  /** The store as error messages name it. */
  private get description(): string {
    return `PostgreSQL schema "${this.schema}" at ${this.target.target}`;
  }

  /** Inserts the run's row and its first checkpoint (the state as given) in one transaction. */
  async create(header: RunHeader, state: AgentState): Promise<void> {
    const stored = storedInitialState(state);
    const status = statusOf(stored);
    const stopReason = stored.nextStep.module === 'done' ? stored.nextStep.args.reason : null;
    await this.transaction(async (client) => {
      const inserted = await client.query(
        `INSERT INTO ${this.tables.runs}
           (run_id, parent_run_id, parent_call_id, task, status, stop_reason, created_at, updated_at,
            nested_module, labels, experiment)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8::jsonb, $9::jsonb, $10::jsonb)
         ON CONFLICT (run_id) DO NOTHING`,
        [
          header.runId,
          header.parentRunId ?? null,
          header.parentCallId ?? null,
          header.task ?? null,
          status,
          stopReason,
          header.createdAt,
          header.nestedModule === undefined ? null : JSON.stringify(header.nestedModule),
          header.labels === undefined ? null : JSON.stringify(header.labels),
          header.experiment === undefined ? null : JSON.stringify(header.experiment),
        ],
      );
      if (inserted.rowCount === 0) {
        throw new RunExistsError({ runId: header.runId, location: this.description });
      }
      await client.query(
        `INSERT INTO ${this.tables.checkpoints}
           (run_id, covers_seq, state, attempts, open_calls, status)
         VALUES ($1, 0, $2::jsonb, '{}'::jsonb, '[]'::jsonb, $3)`,
        [header.runId, JSON.stringify(stored), status],
      );
    });
  }

  /**
   * One statement (one round trip, atomic): the entries and the run's status, counters and time;
   * then, once `checkpointEvery` commits have piled up, a checkpoint in a transaction of its own.
   */
  async append(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    if (entries.length === 0 || entries.length > MAX_ENTRIES_PER_STATEMENT) {
      return this.appendInTransaction(runId, entries);
    }
    const { status, commitSeen, stopReason, commits } = effectOfEntries(entries);
    const time = (entries[entries.length - 1] as JournalEntry).time;
    const values = [runId, status, commitSeen, stopReason, commits, time];
    for (const entry of entries) values.push(JSON.stringify(entry));
    // Prepared once per connection and entry count (the text names the schema).
    const result = await this.withClient((client) =>
      client.query(prepared(this.appendSql(entries.length), values)),
    );
    const row = result.rows[0] as CheckpointCounters | undefined;
    if (row === undefined) throw new RunNotFoundError({ runId, location: this.description });
    if (this.sync === 'batch') this.unflushed = runId;
    if (this.checkpointDue(row)) await this.compact(runId);
  }

  /**
   * The text of `append`'s statement for `count` entries, built once per count: the same string
   * each time, so finding its prepared statement's name does not hash a new copy per append.
   */
  private appendSql(count: number): string {
    const known = this.appendStatements.get(count);
    if (known !== undefined) return known;
    const sql = appendStatement(this.tables, count);
    this.appendStatements.set(count, sql);
    return sql;
  }

  /** Whether the commits past the last checkpoint call for a new one (see `checkpointGrowth`). */
  private checkpointDue(counters: CheckpointCounters): boolean {
    const since = counters.commits_since_checkpoint;
    if (since < this.checkpointEvery) return false;
    return since >= Math.ceil(this.checkpointGrowth * counters.checkpoint_commits);
  }

  /** A checkpoint of the run as of its last entry, unless another append's compaction just made one. */
  private async compact(runId: string): Promise<void> {
    await this.transaction(async (client) => {
      const locked = await client.query(
        `SELECT commits_since_checkpoint, checkpoint_commits
           FROM ${this.tables.runs} WHERE run_id = $1 FOR UPDATE`,
        [runId],
      );
      const row = locked.rows[0] as CheckpointCounters | undefined;
      if (row === undefined || !this.checkpointDue(row)) return;
      await writeCheckpoint(client, this.tables, runId);
      await client.query(
        `UPDATE ${this.tables.runs}
            SET checkpoint_commits = checkpoint_commits + commits_since_checkpoint,
                commits_since_checkpoint = 0
          WHERE run_id = $1`,
        [runId],
      );
    });
  }

  /** The general path (no entries: only checks the run exists; very many: in batches). */
  private async appendInTransaction(
    runId: string,
    entries: readonly JournalEntry[],
  ): Promise<void> {
    await this.transaction(async (client) => {
      const locked = await client.query(
        `SELECT status, stop_reason, commits_since_checkpoint, checkpoint_commits
           FROM ${this.tables.runs} WHERE run_id = $1 FOR UPDATE`,
        [runId],
      );
      const run = locked.rows[0] as
        ({ status: string; stop_reason: string | null } & CheckpointCounters) | undefined;
      if (run === undefined) throw new RunNotFoundError({ runId, location: this.description });
      if (entries.length === 0) return;
      await insertEntries(client, this.tables, runId, entries);
      const effect = effectOfEntries(entries);
      const status = effect.status ?? run.status;
      const stopReason = effect.commitSeen ? effect.stopReason : run.stop_reason;
      let commits = run.commits_since_checkpoint + effect.commits;
      let covered = run.checkpoint_commits;
      if (this.checkpointDue({ commits_since_checkpoint: commits, checkpoint_commits: covered })) {
        await writeCheckpoint(client, this.tables, runId);
        covered += commits;
        commits = 0;
      }
      await client.query(
        `UPDATE ${this.tables.runs}
            SET status = $2, stop_reason = $3, commits_since_checkpoint = $4,
                checkpoint_commits = $6,
                updated_at = GREATEST(updated_at, $5::timestamptz)
          WHERE run_id = $1`,
        [
          runId,
          status,
          stopReason,
          commits,
          (entries[entries.length - 1] as JournalEntry).time,
          covered,
        ],
      );
    });
  }

  /**
   * Resolves once every append that resolved before it is on disk (`sync: 'batch'`): a commit that
   * waits for the disk flushes the write-ahead log up to it, the earlier commits with it. It must
   * write something to wait for (a transaction that wrote nothing commits without flushing): the
   * last appended run's row, unchanged. One round trip.
   */
  async flush(): Promise<void> {
    const runId = this.unflushed;
    if (runId === undefined) return;
    this.unflushed = undefined;
    try {
      await this.withClient((client) =>
        client.query(
          `BEGIN; SET LOCAL synchronous_commit = on;
           UPDATE ${this.tables.runs} SET updated_at = updated_at WHERE run_id = ${sqlLiteral(runId)};
           COMMIT`,
        ),
      );
    } catch (error) {
      this.unflushed ??= runId;
      throw error;
    }
  }

  /** The latest checkpoint plus the entries after it, replayed; nested runs rehydrated into `metadata.nested`. */
  async load(runId: string): Promise<StoredRun | undefined> {
    // One statement is one snapshot; a run with nested runs reads several, in one snapshot too.
    const single = await this.withClient((client) => readRun(client, this.tables, runId));
    if (single === undefined) return undefined;
    if (!hasNestedRuns(single.replay.state)) return storedRunOf(single);
    // So a compaction committing meanwhile cannot remove entries between two reads.
    return this.transaction(async (client) => {
      const found = await readRun(client, this.tables, runId);
      if (found === undefined) return undefined;
      await rehydrateNested(client, this.tables, found.replay.state, new Set([runId]));
      return storedRunOf(found);
    }, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  /** Runs newest first (by `createdAt`), filtered by status and parent, from the `runs` table alone. */
  async list(filter: RunFilter = {}): Promise<RunSummary[]> {
    const query = listQuery(this.tables, filter);
    const result = await this.withClient((client) => client.query(query.text, query.values));
    return (result.rows as RunRow[]).map(summaryOf);
  }

  /**
   * Inserts a served run's events in one statement (issue 32); an event whose `seq` the run has
   * already is a conflict, so two writers of one run cannot both number an event.
   */
  async appendEvents(runId: string, events: readonly StoredRunEvent[]): Promise<void> {
    if (events.length === 0) return;
    const query = eventsInsert(this.tables, runId, events);
    await this.withClient((client) => client.query(query.text, query.values));
  }

  /** The run's served events after `after`, in order. */
  async readEvents(runId: string, after = 0): Promise<StoredRunEvent[]> {
    const result = await this.withClient((client) =>
      client.query(
        `SELECT seq, event FROM ${this.tables.events} WHERE run_id = $1 AND seq > $2 ORDER BY seq`,
        [runId, after],
      ),
    );
    return (result.rows as Array<{ seq: string | number; event: RunEvent }>).map((row) => ({
      seq: Number(row.seq),
      event: row.event,
    }));
  }

  /** Deletes the run and its nested runs (recursively), with their journals and checkpoints. */
  async delete(runId: string): Promise<void> {
    // The run and every run below it (nested runs, their nested runs…); rows of theirs cascade.
    await this.withClient((client) =>
      client.query(
        `WITH RECURSIVE tree(run_id) AS (
           SELECT run_id FROM ${this.tables.runs} WHERE run_id = $1
           UNION
           SELECT child.run_id FROM ${this.tables.runs} child JOIN tree ON child.parent_run_id = tree.run_id
         )
         DELETE FROM ${this.tables.runs} WHERE run_id IN (SELECT run_id FROM tree)`,
        [runId],
      ),
    );
  }

  /**
   * Sends a PostgreSQL notification (`pg_notify(channel, payload)`) on one of the store's
   * connections: a run queue wakes the workers with it. @internal
   */
  async notify(channel: string, payload: string): Promise<void> {
    await this.withConnection((client) =>
      client.query('SELECT pg_notify($1, $2)', [channel, payload]),
    );
  }

  /** Ends the store's own pool (a pool passed as `pool` stays open: it is yours). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  /** Migrates the schema once per store (again after a failure, e.g. the server was down). */
  private ready(): Promise<void> {
    this.migrated ??= this.withConnection((client) => migrate(client, this.schema)).catch(
      (error: unknown) => {
        this.migrated = undefined;
        throw error;
      },
    );
    return this.migrated;
  }

  private async withClient<T>(work: (client: PostgresPoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    return this.withConnection(work);
  }

  /** Runs `work` on a pooled connection; a connection lost meanwhile is a DatabaseConnectionError. */
  private async withConnection<T>(work: (client: PostgresPoolClient) => Promise<T>): Promise<T> {
    const client = await connect(this.pool, this.target, this.connectionTimeoutMs);
    let broken: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      if (isConnectionError(error)) {
        broken = error as Error;
        throw connectionError(error, this.target);
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  private transaction<T>(
    work: (client: PostgresPoolClient) => Promise<T>,
    begin = 'BEGIN',
  ): Promise<T> {
    return this.withClient(async (client) => {
      await client.query(begin);
      try {
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }
}
