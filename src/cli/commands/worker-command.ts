import { CliUsageError } from '../../errors/cli-usage.error';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { ideaAgents, type IdeaAgentOptions } from './idea-agents';
import { engineOptionsOf, positiveInteger, type RunStoreOptions } from './run-store-options';

/** Options of `ideact worker`. */
export interface WorkerCommandOptions extends IdeaAgentOptions, RunStoreOptions {
  concurrency?: string;
  globalConcurrency?: string;
  pollingInterval?: string;
  takeoverInterval?: string;
}

/**
 * `ideact worker --database-url URL --ideas DIR | --idea FILE`: executes queued runs as DBOS
 * workflows until SIGINT or SIGTERM, then stops (steps running now are aborted and taken over by
 * another worker). Each run's agent is the Idea it names (`ideact runs enqueue`).
 */
export async function workerCommand(
  options: WorkerCommandOptions,
  io: CliIo,
  signals: { once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void } = process,
): Promise<ExitCodeValue> {
  const engine = engineOptionsOf(options);
  if (engine === undefined) {
    throw new CliUsageError({
      option: '--database-url',
      reason: 'is required: workers share runs through PostgreSQL',
      fix: 'Pass --database-url postgres://user:password@host:5432/database (`npm run pg:start` starts a throwaway one in a clone of ideact).',
    });
  }
  const concurrency = positiveInteger(options.concurrency, '--concurrency');
  const globalConcurrency = positiveInteger(options.globalConcurrency, '--global-concurrency');
  const pollingIntervalMs = positiveInteger(options.pollingInterval, '--polling-interval');
  const takeoverIntervalMs = positiveInteger(options.takeoverInterval, '--takeover-interval');
  const agents = await ideaAgents(options, io);
  const { superviseWorker } = await import('../../engine/worker-supervisor');
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    signals.once('SIGINT', () => resolve('SIGINT'));
    signals.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // Started again when it stops on its own (its lock connection lost: PostgreSQL restarted).
  const supervised = await superviseWorker({
    ...engine,
    agent: (header) => agents.agentFor(header.agentName),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(globalConcurrency === undefined ? {} : { globalConcurrency }),
    ...(pollingIntervalMs === undefined ? {} : { pollingIntervalMs }),
    ...(takeoverIntervalMs === undefined ? {} : { takeoverIntervalMs }),
    onError: (error) =>
      io.stderr(`ideact worker: ${error instanceof Error ? error.message : String(error)}\n`),
    onRestart: (restarted) =>
      io.stderr(`ideact worker: started again as ${restarted.executorId}\n`),
  });
  const worker = supervised.worker;
  io.stderr(
    `ideact worker ${worker.executorId}: serving ${agents.names.join(', ')} on queue ${worker.queueName}` +
      ` (concurrency ${concurrency ?? 4}, queue polled every ${pollingIntervalMs ?? 1_000} ms,` +
      ` takeover scan every ${takeoverIntervalMs ?? 5_000} ms); Ctrl-C stops it\n`,
  );
  const signal = await stopped;
  io.stderr(`ideact worker: ${signal}: stopping (running steps are handed to other workers)\n`);
  await supervised.stop();
  await agents.dispose();
  return ExitCode.ok;
}
