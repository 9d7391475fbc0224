import { CliUsageError } from '../../errors/cli-usage.error';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { ideaAgents, type IdeaAgentOptions, type IdeaAgents } from './idea-agents';
import { engineOptionsOf, positiveInteger, type RunStoreOptions } from './run-store-options';
import { selectProvider } from './select-provider';
import type { Agent } from '../../agent/agent';
import { UnknownAgentError } from '../../errors/unknown-agent.error';

/** Options of `ideact worker`. */
export interface WorkerCommandOptions extends IdeaAgentOptions, RunStoreOptions {
  /** A config module (a container or a configuration; `.ts` through the project's tsx): its agent. */
  config?: string;
  concurrency?: string;
  globalConcurrency?: string;
  pollingInterval?: string;
  takeoverInterval?: string;
}

/** The agent name a config's agent is known by (as `ideact serve` names it): `agent`. */
export const CONFIG_AGENT_NAME = 'agent';

/**
 * `ideact worker --database-url URL (--ideas DIR | --idea FILE | --config FILE)`: executes queued
 * runs as DBOS workflows until SIGINT or SIGTERM, then stops (steps running now are aborted and
 * taken over by another worker). Each run's agent is the Idea it names (`ideact runs enqueue`), or
 * the config's agent for a run named `agent` (or none, when the worker serves no Idea).
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
  const agents = await workerAgents(options, io);
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

/** The agents of a worker: its config's (`--config`), its Ideas' (`--idea`, `--ideas`), or both. */
async function workerAgents(options: WorkerCommandOptions, io: CliIo): Promise<IdeaAgents> {
  if (options.config === undefined) return ideaAgents(options, io);
  const ideas =
    options.idea === undefined && options.ideas === undefined
      ? undefined
      : await ideaAgents(options, io);
  const { loadConfigContainer } = await import('../../dev/playground-setup');
  const { agentFromContainer } = await import('../../container/create-agent');
  // The provider is chosen (and announced) only for a configuration that names none; with Ideas
  // too, their agents' selection announced it already.
  let model = options.model;
  const container = await loadConfigContainer(options.config, async () => {
    const selected = await selectProvider(
      options,
      ideas === undefined ? io : { ...io, stderr: () => undefined },
    );
    model = selected.model;
    return selected.provider;
  });
  const agent: Promise<Agent> = Promise.resolve(
    agentFromContainer(container, model === undefined ? {} : { model }),
  );
  const names = [CONFIG_AGENT_NAME, ...(ideas?.names ?? [])].sort();
  return {
    names,
    agentFor(name) {
      if (name === CONFIG_AGENT_NAME || (name === undefined && ideas === undefined)) return agent;
      if (ideas === undefined || name === undefined) {
        return Promise.reject(new UnknownAgentError({ agentName: name, known: names }));
      }
      return ideas.agentFor(name);
    },
    async dispose() {
      await ideas?.dispose();
      await (await agent).dispose();
    },
  };
}
