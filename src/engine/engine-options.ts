/**
 * What workers and run queues must agree on to share runs: the database, the DBOS queue, the run
 * store's schema, DBOS's system schema and application name. Defaults here, so both sides match.
 */
export interface EngineOptions {
  /** `postgres://user:password@host:port/database`: the run store and DBOS's system tables live here. */
  databaseUrl: string;
  /** The DBOS queue runs are enqueued on and workers consume (default `ideact-runs`). */
  queueName?: string;
  /** The PostgresRunStore's schema (default `ideact`). */
  schema?: string;
  /** The schema of DBOS's system tables: workflows, their steps, queues (default `dbos`). */
  systemSchema?: string;
  /** The DBOS application name that owns the workflows and the queue (default `ideact`). */
  applicationName?: string;
}

/** The workflow every run executes as, by name (enqueuers and workers must agree on it). */
export const RUN_WORKFLOW_NAME = 'ideact-run';

/**
 * The DBOS application version of the run workflow. A workflow is replayed only by an executor of
 * its version, so this changes only when the workflow's sequence of steps changes shape.
 */
export const RUN_WORKFLOW_VERSION = 'ideact-run-1';

/** The queue runs go to unless told otherwise. */
export const DEFAULT_QUEUE_NAME = 'ideact-runs';

/** The DBOS application name unless told otherwise. */
export const DEFAULT_APPLICATION_NAME = 'ideact';

/** DBOS's default system schema. */
export const DEFAULT_SYSTEM_SCHEMA = 'dbos';

/** Executor ids of ideact workers start with this; only such executors are ever taken over. */
export const EXECUTOR_PREFIX = 'ideact-';

/** Options with every default filled in. @internal */
export type ResolvedEngineOptions = Required<Omit<EngineOptions, 'schema'>> & { schema?: string };

/** Fills in the defaults. @internal */
export function resolveEngineOptions(options: EngineOptions): ResolvedEngineOptions {
  return {
    databaseUrl: options.databaseUrl,
    queueName: options.queueName ?? DEFAULT_QUEUE_NAME,
    systemSchema: options.systemSchema ?? DEFAULT_SYSTEM_SCHEMA,
    applicationName: options.applicationName ?? DEFAULT_APPLICATION_NAME,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  };
}

/** The DBOS workflow id of a run's n-th execution: the run id, then `<runId>:2`, `<runId>:3`… */
export function workflowIdOf(runId: string, execution: number): string {
  return execution <= 1 ? runId : `${runId}:${execution}`;
}

/** True when `workflowId` is an execution of run `runId` (see {@link workflowIdOf}). */
export function isWorkflowOf(workflowId: string, runId: string): boolean {
  return (
    workflowId === runId ||
    (workflowId.startsWith(runId) && /^:\d+$/.test(workflowId.slice(runId.length)))
  );
}
