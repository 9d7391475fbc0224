import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { WorkerAlreadyRunningError } from '../errors/worker-already-running.error';
import type { Agent } from '../agent/agent';
import { PostgresRunStore } from '../store/postgres-run-store';
import { dbosSdk, type DbosSdk } from './dbos-sdk';
import {
  EXECUTOR_PREFIX,
  RUN_WORKFLOW_NAME,
  RUN_WORKFLOW_VERSION,
  resolveEngineOptions,
  type EngineOptions,
} from './engine-options';
import { registerRunWorkflow } from './run-workflow';
import type { WorkerRunHeader } from './worker-run-header';
import { migrateSystemSchema } from './system-schema';
import { WorkerLiveness } from './worker-liveness';
import { DBOS_INTERNAL_QUEUE, QUEUE_WAKEUP_CHANNEL, QueueWakeup } from './queue-wakeup';
import { WorkerWatch } from './worker-watch';

/** The agent of a worker: one for every run, or one per run chosen from its header (e.g. by `agentName`). */
export type WorkerAgent = Agent | ((header: WorkerRunHeader) => Agent | Promise<Agent>);

/** Options of {@link startWorker}. */
export interface WorkerOptions extends EngineOptions {
  /** Runs the runs. A function is called once per run execution in this process (cache agents you build). */
  agent: WorkerAgent;
  /** Runs this worker executes at the same time (default 4; DBOS's per-worker queue limit). */
  concurrency?: number;
  /** Runs all workers together execute at the same time (default: no limit). */
  globalConcurrency?: number;
  /** How often the queue is polled for new runs, at the fastest (default 1000 ms; DBOS backs off under contention). */
  pollingIntervalMs?: number;
  /** How often this worker looks for runs of workers that died, to take them over (default 5000 ms). */
  takeoverIntervalMs?: number;
  /** DBOS's log level (default `warn`). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Told about problems that do not stop a run: a takeover scan failed, the lock connection dropped. */
  onError?: (error: unknown) => void;
}

/** A running worker. */
export interface Worker {
  /** The DBOS executor id of this worker (`ideact-<host>-<pid>-<random>`), as the workflows record it. */
  readonly executorId: string;
  /** The queue it consumes. */
  readonly queueName: string;
  /**
   * Aborted when the worker stops (`stop()`, or its lock lost): tie work of your own to the
   * worker's life with it. Its steps listen to it only while they run (remove what you add too).
   */
  readonly signal: AbortSignal;
  /**
   * Stops taking runs, aborts the steps running now (their Calls are cancelled and not recorded, so
   * another worker runs them again), waits up to `timeoutMs` (default 30 000) for them to settle,
   * shuts DBOS down and releases this worker's lock, so other workers take over its unfinished runs.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

/** This process's worker (or true while one starts): DBOS is one per process. */
let running: Worker | true | undefined;

/**
 * Starts a worker (issue 18): launches DBOS on the database, registers the `ideact-run` workflow
 * and consumes the run queue, executing each run as a DBOS workflow of agent steps (see
 * `registerRunWorkflow` and docs/workers.md for the replay contract). Any number of worker processes,
 * on any machines, may share the queue; when one dies (even SIGKILL), another takes over its runs,
 * since PostgreSQL frees the dead worker's advisory lock. One worker per process (DBOS is global).
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  if (running !== undefined || dbosSdk().DBOS.isInitialized()) {
    throw new WorkerAlreadyRunningError();
  }
  running = true;
  try {
    const worker = await launchWorker(options);
    running = worker;
    return worker;
  } catch (error) {
    running = undefined;
    throw error;
  }
}

async function launchWorker(options: WorkerOptions): Promise<Worker> {
  const engine = resolveEngineOptions(options);
  const sdk = dbosSdk();
  const { DBOS } = sdk;
  const executorId = `${EXECUTOR_PREFIX}${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const report = options.onError ?? defaultReport;
  const stopController = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const self: { worker?: Worker } = {};
  const liveness = await WorkerLiveness.hold(engine.databaseUrl, executorId, (error) => {
    // Without its lock, others may take this worker's runs over: it must not go on running them.
    report(error);
    void self.worker?.stop({ timeoutMs: 0 });
  });
  const store = new PostgresRunStore({
    connectionString: engine.databaseUrl,
    ...(engine.schema === undefined ? {} : { schema: engine.schema }),
    // Workers' steps are DBOS steps, recorded on disk: the journal commits wait for the disk too.
    sync: 'commit',
  });
  const agentFor = agentFactory(options.agent);
  let timer: NodeJS.Timeout | undefined;
  let wakeup: QueueWakeup | undefined;
  try {
    await store.list({ limit: 0 }); // creates the store's tables before any run needs them
    await migrateSystemSchema(sdk, engine.databaseUrl, engine.systemSchema);
    registerRunWorkflow(sdk, { store, agentFor, stopSignal: stopController.signal, inFlight });
    DBOS.setConfig({
      name: engine.applicationName,
      systemDatabaseUrl: engine.databaseUrl,
      systemDatabaseSchemaName: engine.systemSchema,
      executorID: executorId,
      applicationVersion: RUN_WORKFLOW_VERSION,
      logLevel: options.logLevel ?? 'warn',
      listenQueues: [engine.queueName],
    });
    await DBOS.launch();
    await DBOS.registerQueue(engine.queueName, {
      workerConcurrency: options.concurrency ?? 4,
      ...(options.globalConcurrency === undefined
        ? {}
        : { globalConcurrency: options.globalConcurrency }),
      ...(options.pollingIntervalMs === undefined
        ? {}
        : { minPollingIntervalMs: options.pollingIntervalMs }),
      onConflict: 'always_update',
    });
    // Dequeue when a run is enqueued or a slot frees up, not only at the next poll.
    wakeup = QueueWakeup.install();
    if (wakeup !== undefined) {
      const installed = wakeup;
      await liveness.listen(QUEUE_WAKEUP_CHANNEL, (queueName) => installed.wake(queueName));
    }
  } catch (error) {
    wakeup?.uninstall();
    await DBOS.shutdown({ deregister: true }).catch(() => undefined);
    await store.close();
    await liveness.release();
    throw error;
  }

  let scanning: Promise<void> = Promise.resolve();
  let scanQueued = false;
  const resumed = (): void => {
    // The runs taken over start here now, not at the next poll of their queue.
    wakeup?.wake(engine.queueName);
    wakeup?.wake(DBOS_INTERNAL_QUEUE);
  };
  const scan = (): void => {
    if (scanQueued) return; // one scan waiting behind the running one covers every request
    scanQueued = true;
    scanning = scanning
      .then(() => {
        scanQueued = false;
        return takeOverGoneWorkers(sdk, liveness, engine.queueName, executorId, resumed);
      })
      .catch((error: unknown) => {
        if (!stopController.signal.aborted) report(error);
      });
  };
  scan();
  const takeoverIntervalMs = options.takeoverIntervalMs ?? DEFAULT_TAKEOVER_INTERVAL_MS;
  timer = setInterval(scan, takeoverIntervalMs);
  timer.unref();
  // A scan the moment the next worker of the ring dies, instead of at the next timed one.
  const watch = WorkerWatch.start({
    databaseUrl: engine.databaseUrl,
    executorId,
    waitMs: takeoverIntervalMs,
    onGone: scan,
    onError: (error) => {
      if (!stopController.signal.aborted) report(error);
    },
    cancelBackend: (backendPid) => liveness.cancelBackend(backendPid),
  });
  // A worker that joins is watched at once: the others read the ring again.
  await liveness.listen(WORKER_JOINED_CHANNEL, () => watch.refresh());
  // A worker that joined before this one listened is in the ring it reads now.
  watch.refresh();
  await liveness.notify(WORKER_JOINED_CHANNEL, executorId).catch(() => undefined);

  let stopping: Promise<void> | undefined;
  const worker: Worker = {
    executorId,
    queueName: engine.queueName,
    signal: stopController.signal,
    stop(stopOptions = {}) {
      stopping ??= (async () => {
        clearInterval(timer);
        timer = undefined;
        stopController.abort(new Error('the worker is stopping'));
        await watch.stop();
        await settled([...inFlight], stopOptions.timeoutMs ?? 30_000);
        await scanning;
        wakeup?.uninstall();
        await DBOS.shutdown({ deregister: true });
        await store.close();
        await liveness.release();
        if (running === worker) running = undefined;
      })();
      return stopping;
    },
  };
  self.worker = worker;
  return worker;
}

/**
 * Takes over the runs of workers that are gone: for each other executor with PENDING runs on the
 * queue (or child workflows of runs, which have no queue of their own) whose lock is free,
 * re-enqueues (DBOS `resumeWorkflow`) those runs, holding its lock so that exactly one worker does
 * it. Runs go back on the queue, children on DBOS's internal queue (a parent already holds a slot
 * while it waits for its child). Their workflows then replay on whichever worker dequeues them.
 */
async function takeOverGoneWorkers(
  sdk: DbosSdk,
  liveness: WorkerLiveness,
  queueName: string,
  self: string,
  resumed: () => void,
): Promise<void> {
  const { DBOS } = sdk;
  const ours = (workflow: { queueName?: string }): boolean =>
    workflow.queueName === queueName || isChildQueue(workflow.queueName);
  const pending = await DBOS.listWorkflows({
    status: 'PENDING',
    workflowName: RUN_WORKFLOW_NAME,
    loadInput: false,
    loadOutput: false,
  });
  const executors = new Set(
    pending
      .filter(ours)
      .map((workflow) => workflow.executorId)
      .filter(
        (id): id is string => id !== undefined && id !== self && id.startsWith(EXECUTOR_PREFIX),
      ),
  );
  for (const executorId of executors) {
    await liveness.whileGone(executorId, async () => {
      // Listed again under the lock: runs another worker took over meanwhile have a new executor.
      const orphans = await DBOS.listWorkflows({
        status: 'PENDING',
        workflowName: RUN_WORKFLOW_NAME,
        executorId,
        loadInput: false,
        loadOutput: false,
      });
      for (const orphan of orphans.filter(ours)) {
        await DBOS.resumeWorkflow(
          orphan.workflowID,
          orphan.queueName === queueName ? { queueName } : undefined,
        );
      }
      if (orphans.length > 0) resumed();
    });
  }
}

/** A child workflow's queue: none (started by its parent) or DBOS's internal one (resumed). */
function isChildQueue(queueName: string | undefined): boolean {
  return queueName === undefined || queueName === DBOS_INTERNAL_QUEUE;
}

/** The channel a starting worker notifies, so the others watch the ring it joined. */
const WORKER_JOINED_CHANNEL = 'ideact_worker_joined';

/** How often a worker scans for runs of dead workers, and reads the ring it watches, by default. */
const DEFAULT_TAKEOVER_INTERVAL_MS = 5_000;

/** The worker's agent option as a function of the run header. */
function agentFactory(agent: WorkerAgent): (header: WorkerRunHeader) => Agent | Promise<Agent> {
  return typeof agent === 'function' ? agent : () => agent;
}

/** Resolves when every promise settled, or after `timeoutMs`. */
async function settled(promises: Promise<unknown>[], timeoutMs: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

function defaultReport(error: unknown): void {
  process.emitWarning(`ideact worker: ${error instanceof Error ? error.message : String(error)}`, {
    code: 'IDEACT_WORKER',
  });
}
