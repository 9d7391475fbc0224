import path from 'node:path';

/**
 * The PostgreSQL channel a run queue notifies when it enqueues a run (payload: the queue's name), so
 * the workers consuming that queue dequeue it at once instead of at their next poll. @internal
 */
export const QUEUE_WAKEUP_CHANNEL = 'ideact_queue_wakeup';

/** The queue DBOS puts a resumed child workflow on (`@dbos-inc/dbos-sdk` 5). @internal */
export const DBOS_INTERNAL_QUEUE = '_dbos_internal_queue';

/** What the wakeup drives of DBOS 5's queue runner (`dist/src/wfqueue.js`, not exported). */
interface QueueRunner {
  pollQueue(executor: unknown, queue: { name: string }): Promise<boolean>;
  states: Map<string, { queue: { name: string } }>;
  getInternalQueue(name: string): { name: string } | undefined;
}

/** What the wakeup reads of DBOS 5's executor (`dist/src/dbos-executor.js`, not exported). */
interface Executor {
  systemDatabase: {
    registerRunningWorkflow(
      workflowId: string,
      queueName: string | undefined,
      partitionKey: string | undefined,
    ): { release: () => void; queueName?: string };
  };
}

/** DBOS internals, or undefined when this DBOS release lays them out differently. */
function dbosInternals():
  { runner: QueueRunner; executor: () => Executor | undefined } | undefined {
  try {
    // The package's exports map hides these files; an absolute path reaches them (DBOS 5.x).
    const directory = path.dirname(require.resolve('@dbos-inc/dbos-sdk'));
    /* eslint-disable @typescript-eslint/no-require-imports -- DBOS internals, feature-detected */
    const runner = (require(path.join(directory, 'wfqueue.js')) as { wfQueueRunner?: QueueRunner })
      .wfQueueRunner;
    const executorClass = (
      require(path.join(directory, 'dbos-executor.js')) as {
        DBOSExecutor?: { globalInstance?: Executor };
      }
    ).DBOSExecutor;
    /* eslint-enable @typescript-eslint/no-require-imports */
    if (
      runner === undefined ||
      typeof runner.pollQueue !== 'function' ||
      !(runner.states instanceof Map) ||
      typeof runner.getInternalQueue !== 'function' ||
      executorClass === undefined
    ) {
      return undefined;
    }
    return { runner, executor: () => executorClass.globalInstance };
  } catch {
    return undefined;
  }
}

/**
 * Dequeues at once instead of at the next queue poll (issue 31): when a run is enqueued on the
 * worker's queue (a notification on {@link QUEUE_WAKEUP_CHANNEL}), when one of the worker's runs
 * ends (a slot is free), and when a takeover re-enqueued runs ({@link QueueWakeup.wake}). DBOS 5
 * polls a queue on a timer only, so this drives its queue runner's own poll (one at a time per
 * queue, the timer's included, so the worker's concurrency limit holds). Without those internals
 * (another DBOS release) it does nothing and the timer's poll alone dequeues.
 * @internal
 */
export class QueueWakeup {
  private readonly pending = new Map<string, { again: boolean }>();
  private stopped = false;

  private constructor(
    private readonly runner: QueueRunner,
    private readonly executor: Executor,
    private readonly restore: () => void,
  ) {}

  /** Installs the wakeup on the launched DBOS (undefined when its internals are not found). */
  static install(): QueueWakeup | undefined {
    const internals = dbosInternals();
    const executor = internals?.executor();
    if (internals === undefined || executor === undefined) return undefined;
    const { runner } = internals;
    const database = executor.systemDatabase;
    if (typeof database?.registerRunningWorkflow !== 'function') return undefined;
    const originalPoll = runner.pollQueue;
    const originalRegister = database.registerRunningWorkflow;
    // One poll of a queue at a time: DBOS counts this worker's running workflows before claiming.
    const chains = new Map<string, Promise<unknown>>();
    runner.pollQueue = function serializedPoll(executorArgument, queue) {
      const previous = chains.get(queue.name) ?? Promise.resolve();
      const next = previous.then(() => originalPoll.call(runner, executorArgument, queue));
      chains.set(
        queue.name,
        next.catch(() => undefined),
      );
      return next;
    };
    const wakeup = new QueueWakeup(runner, executor, () => {
      runner.pollQueue = originalPoll;
      database.registerRunningWorkflow = originalRegister;
    });
    database.registerRunningWorkflow = function registerAndWake(workflowId, queueName, key) {
      const entry = originalRegister.call(database, workflowId, queueName, key);
      const release = entry.release;
      entry.release = () => {
        release();
        if (queueName !== undefined) wakeup.wake(queueName);
      };
      return entry;
    };
    return wakeup;
  }

  /**
   * Polls `queueName` now (DBOS's internal queue too, by its name), coalescing: a wake during a poll
   * of that queue polls it once more after it. A queue this worker does not consume is ignored.
   */
  wake(queueName: string): void {
    if (this.stopped) return;
    const queue =
      this.runner.states.get(queueName)?.queue ?? this.runner.getInternalQueue(queueName);
    if (queue === undefined) return;
    const pending = this.pending.get(queueName);
    if (pending !== undefined) {
      pending.again = true;
      return;
    }
    const state = { again: false };
    this.pending.set(queueName, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.runner.pollQueue(this.executor, queue).catch(() => undefined);
        } while (state.again && !this.stopped);
      } finally {
        this.pending.delete(queueName);
      }
    })();
  }

  /** Stops waking and puts DBOS's functions back. */
  uninstall(): void {
    this.stopped = true;
    this.restore();
  }
}
