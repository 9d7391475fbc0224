import { RunActiveError } from '../errors/run-active.error';
import { WorkerRunFailedError } from '../errors/worker-run-failed.error';
import type { Agent } from '../agent/agent';
import type { RunOptions } from '../agent/agent-options';
import { createInitialState } from '../runs/state-tree';
import { newRunId } from '../runs/run-context';
import { PostgresRunStore } from '../store/postgres-run-store';
import { dbosSdk } from './dbos-sdk';
import { isAborted } from './agent-step';
import {
  RUN_WORKFLOW_NAME,
  RUN_WORKFLOW_VERSION,
  isWorkflowOf,
  resolveEngineOptions,
  workflowIdOf,
  type EngineOptions,
  type ResolvedEngineOptions,
} from './engine-options';
import type { RunWorkflowInput } from './run-workflow';
import { QUEUE_WAKEUP_CHANNEL } from './queue-wakeup';
import { migrateSystemSchema } from './system-schema';
import {
  cancelStoredRun,
  loadStoredRun,
  reopenStoredRun,
  type ReopenOptions,
} from './stored-run-control';
import { workerRunResult, type WorkerRunResult } from './worker-run-result';

/** How long `cancel` waits for a step a worker runs to commit its abort (none may be running). */
const CANCEL_SETTLE_MS = 3_000;

type DbosClient = import('@dbos-inc/dbos-sdk').DBOSClient;
type WorkflowStatus = import('@dbos-inc/dbos-sdk').WorkflowStatus;

/** What a new run starts from (as `agent.start()` takes it) and which agent a worker gives it. */
export interface EnqueueOptions extends Pick<
  RunOptions,
  'task' | 'context' | 'output' | 'instances' | 'maxTurns' | 'maxTokens' | 'maxTimeMs'
> {
  /** Builds the initial state like `agent.start(options)` does (optional: the state does not depend on it). */
  agent?: Agent;
  /** Handed to the worker's agent factory (`header.agentName`), e.g. the Idea to run (`ideact worker --ideas`). */
  agentName?: string;
  /** The run's id (default: a new one); the run's first workflow has this id too. */
  runId?: string;
  /** Queue priority: 0 (default) is the highest; larger numbers wait behind smaller ones. */
  priority?: number;
}

/** A run on the queue. */
export interface EnqueuedRun {
  runId: string;
  /** The DBOS workflow executing it: the run id, or `<runId>:<n>` for the n-th execution (resumes). */
  workflowId: string;
}

/**
 * Puts runs on the worker queue and follows them (issue 18), from any process: no worker needed
 * here, only the database. Creates each run in the PostgresRunStore, then enqueues the DBOS workflow
 * `ideact-run` with the run id as workflow id. Connects on first use; `close()` when done.
 */
export class RunQueue {
  /** The store the runs are created in (the same database and schema the workers use). */
  readonly store: PostgresRunStore;
  private readonly engine: ResolvedEngineOptions;
  private client?: Promise<DbosClient>;

  constructor(options: EngineOptions) {
    this.engine = resolveEngineOptions(options);
    this.store = new PostgresRunStore({
      connectionString: options.databaseUrl,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      // Workers' steps are DBOS steps, recorded on disk: the journal commits wait for the disk too.
      sync: 'commit',
    });
  }

  /** Creates the run (its initial state) in the store and enqueues its workflow. */
  async enqueue(options: EnqueueOptions): Promise<EnqueuedRun> {
    const start = pick(options, ['task', 'context', 'output', 'instances']);
    const limits = pick(options, ['maxTurns', 'maxTokens', 'maxTimeMs']);
    // The state agent.start() would run from (without an agent: the same, built directly).
    const state =
      options.agent === undefined
        ? createInitialState({ ...start, limits })
        : options.agent.start({ ...start, ...limits }).state;
    const runId = options.runId ?? newRunId();
    state.runId = runId;
    await this.store.create(
      {
        runId,
        ...(options.task === undefined ? {} : { task: options.task }),
        createdAt: new Date().toISOString(),
      },
      state,
    );
    return this.enqueueWorkflow(runId, 1, options);
  }

  /**
   * Waits for the run's workflow to end and resolves to the run's result (also for a cancelled
   * run); a workflow that failed is a WorkerRunFailedError. It waits for `workflowId` when given
   * (the execution `enqueue` or `resume` returned), else for the run's latest one. After
   * `timeoutMs` it resolves to the run as it is now (status `running`).
   */
  async wait<TOutput = unknown>(
    runId: string,
    options: { timeoutMs?: number; pollingIntervalMs?: number; workflowId?: string } = {},
  ): Promise<WorkerRunResult<TOutput>> {
    const client = await this.connect();
    const latest =
      options.workflowId === undefined
        ? await this.latestWorkflow(runId)
        : { workflowID: options.workflowId };
    if (latest === undefined) {
      const stored = await loadStoredRun(this.store, runId);
      return workerRunResult<TOutput>(runId, stored.state, stored.status);
    }
    const handle = client.retrieveWorkflow<WorkerRunResult<TOutput>>(latest.workflowID);
    const pollingIntervalMs = options.pollingIntervalMs ?? 200;
    // DBOS's client ignores `timeoutSeconds` (5.x): with a timeout, the status is polled here, and
    // the result is read once the workflow has ended.
    if (options.timeoutMs !== undefined) {
      const deadline = Date.now() + options.timeoutMs;
      while (!ENDED_WORKFLOW.has((await handle.getStatus())?.status ?? '')) {
        const left = deadline - Date.now();
        if (left <= 0) {
          const stored = await loadStoredRun(this.store, runId);
          return workerRunResult<TOutput>(runId, stored.state, stored.status);
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollingIntervalMs, left)));
      }
    }
    try {
      const result = await handle.getResult({ pollingIntervalMs });
      if (result !== null) return result;
    } catch (error) {
      const status = await handle.getStatus();
      if (status?.status === 'CANCELLED') return this.cancelledResult<TOutput>(runId);
      throw new WorkerRunFailedError({
        runId,
        workflowId: latest.workflowID,
        detail: error instanceof Error ? error.message : String(error),
        cause: error,
      });
    }
    const stored = await loadStoredRun(this.store, runId);
    return workerRunResult<TOutput>(runId, stored.state, stored.status);
  }

  /**
   * A cancelled run's result, once its store says `cancelled`: the step the cancellation aborted
   * commits the run as aborted before the worker marks it cancelled again (within a second or so).
   */
  private async cancelledResult<TOutput>(runId: string): Promise<WorkerRunResult<TOutput>> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const stored = await loadStoredRun(this.store, runId);
      if (stored.status === 'cancelled' || Date.now() > deadline) {
        return workerRunResult<TOutput>(runId, stored.state, stored.status);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Cancels a run: marks it `cancelled` in the store, and cancels its DBOS workflow when one is
   * queued or running, with the child workflows of its nested runs (a step running now is aborted:
   * its Calls are cancelled, not recorded).
   */
  async cancel(runId: string): Promise<void> {
    const latest = await this.latestWorkflow(runId);
    if (latest !== undefined && isActive(latest.status)) {
      // Its nested runs' child workflows too (DBOS leaves children running unless told).
      await (await this.connect()).cancelWorkflow(latest.workflowID, { cancelChildren: true });
    }
    await cancelStoredRun(this.store, runId);
    // A step a worker runs now is aborted and commits the run as it stops: wait for that (briefly),
    // so that a resume right after cannot be overwritten by the cancelled execution's last writes.
    if (latest?.status === 'PENDING') await this.settled(runId, CANCEL_SETTLE_MS);
  }

  /** Until the run's running step has committed its abort (or `timeoutMs`, when no step ran). */
  private async settled(runId: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const stored = await loadStoredRun(this.store, runId);
      if (stored.status === 'cancelled' && isAborted(stored.state.nextStep)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Continues a stopped or cancelled run on the workers: records the decisions (for a run
   * awaiting approval) and raised limits in the store, then enqueues a new execution of its
   * workflow (`<runId>:<n>`), with the agent name of the previous one. A run that a worker still
   * runs or that waits on the queue is a RunActiveError.
   */
  async resume(runId: string, options: ReopenOptions = {}): Promise<EnqueuedRun> {
    const workflows = await this.workflowsOf(runId);
    const latest = workflows[0];
    if (latest !== undefined && isActive(latest.status)) {
      throw new RunActiveError({
        runId,
        workflowId: latest.workflowID,
        workflowStatus: latest.status,
      });
    }
    await reopenStoredRun(this.store, runId, options);
    const input = (latest?.input?.[1] ?? {}) as RunWorkflowInput;
    return this.enqueueWorkflow(runId, workflows.length + 1, input);
  }

  /** Ends the store's pool and the DBOS client's. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await Promise.all([
      client?.then((connected) => connected.destroy()).catch(() => undefined),
      this.store.close(),
    ]);
  }

  private async enqueueWorkflow(
    runId: string,
    execution: number,
    options: { agentName?: string; priority?: number },
  ): Promise<EnqueuedRun> {
    const workflowId = workflowIdOf(runId, execution);
    const input: RunWorkflowInput =
      options.agentName === undefined ? {} : { agentName: options.agentName };
    const client = await this.connect();
    await client.enqueue(
      {
        queueName: this.engine.queueName,
        workflowName: RUN_WORKFLOW_NAME,
        workflowID: workflowId,
        appVersion: RUN_WORKFLOW_VERSION,
        ...(options.priority === undefined ? {} : { priority: options.priority }),
      },
      runId,
      input,
    );
    // Workers listening dequeue it now rather than at their next poll (best effort: they poll too).
    await this.store.notify(QUEUE_WAKEUP_CHANNEL, this.engine.queueName).catch(() => undefined);
    return { runId, workflowId };
  }

  /** The DBOS workflows that executed the run, newest first. */
  private async workflowsOf(runId: string): Promise<WorkflowStatus[]> {
    const client = await this.connect();
    const found = await client.listWorkflows({
      workflow_id_prefix: runId,
      workflowName: RUN_WORKFLOW_NAME,
      loadOutput: false,
    });
    return found
      .filter((workflow) => isWorkflowOf(workflow.workflowID, runId))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  private async latestWorkflow(runId: string): Promise<WorkflowStatus | undefined> {
    return (await this.workflowsOf(runId))[0];
  }

  /** The DBOS client, created on first use (DBOS's system tables are created when missing). */
  private connect(): Promise<DbosClient> {
    this.client ??= (async () => {
      const sdk = dbosSdk();
      await migrateSystemSchema(sdk, this.engine.databaseUrl, this.engine.systemSchema);
      const { DBOSClient } = sdk;
      return DBOSClient.create({
        systemDatabaseUrl: this.engine.databaseUrl,
        systemDatabaseSchemaName: this.engine.systemSchema,
        applicationName: this.engine.applicationName,
      });
    })();
    this.client.catch(() => {
      this.client = undefined;
    });
    return this.client;
  }
}

function isActive(status: string): boolean {
  return status === 'ENQUEUED' || status === 'PENDING' || status === 'DELAYED';
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

/** DBOS workflow statuses after which a workflow's result can be read at once. */
const ENDED_WORKFLOW: ReadonlySet<string> = new Set([
  'SUCCESS',
  'ERROR',
  'CANCELLED',
  'MAX_RECOVERY_ATTEMPTS_EXCEEDED',
]);
