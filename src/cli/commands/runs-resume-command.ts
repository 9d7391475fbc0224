import { CliUsageError } from '../../errors/cli-usage.error';
import type { ApprovalDecision } from '../../calls/call-approval';
import type { StoredRun } from '../../runs/run-store';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { agentNameOf, ideaAgents, ideaRunStart, type IdeaAgentOptions } from './idea-agents';
import { ideaRunOrigin } from './run-origin-store';
import { resumeSuggestion } from './resume-suggestion';
import { formatRunReport, runReport } from './run-report';
import {
  engineOptionsOf,
  openRunStore,
  positiveInteger,
  type RunStoreOptions,
} from './run-store-options';

/** Options of `ideact runs resume ID`. */
export interface RunsResumeOptions extends RunStoreOptions, IdeaAgentOptions {
  /** Call ids to approve (repeatable). */
  approve?: string[];
  /** `CALLID=reason` to reject (repeatable). */
  reject?: string[];
  /** `CALLID=JSON params` to run instead (repeatable). */
  edit?: string[];
  maxTurns?: string;
  /** With `--ideas`: the Idea (agent name) the run uses. */
  agent?: string;
  /** With `--database-url`: wait for the workers to stop the run, and print it. */
  wait?: boolean;
}

/**
 * `ideact runs resume ID`: continues a stopped or cancelled run, with decisions for the Calls it
 * awaits (`--approve`, `--reject`, `--edit`). On a FileRunStore it runs here, with the agent of
 * `--idea`; with `--database-url` it is enqueued again for the workers (`--wait` waits for it).
 */
export async function runsResumeCommand(
  runId: string,
  options: RunsResumeOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const decisions = parseDecisions(options);
  const maxTurns = positiveInteger(options.maxTurns, '--max-turns');
  const reopen = {
    ...(decisions === undefined ? {} : { decisions }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
  };
  const engine = engineOptionsOf(options);
  if (engine !== undefined) {
    const { RunQueue } = await import('../../engine/run-queue');
    const queue = new RunQueue(engine);
    try {
      const enqueued = await queue.resume(runId, reopen);
      if (options.wait !== true) {
        io.stdout(
          options.json === true
            ? `${JSON.stringify(enqueued)}\n`
            : `enqueued ${runId} again (workflow ${enqueued.workflowId})\n`,
        );
        return ExitCode.ok;
      }
      await queue.wait(runId, { workflowId: enqueued.workflowId });
      const { loadStoredRun } = await import('../../engine/stored-run-control');
      return report(await loadStoredRun(queue.store, runId), options, io);
    } finally {
      await queue.close();
    }
  }
  const store = await openRunStore(options);
  const agents = await ideaAgents(options, io);
  try {
    const { loadStoredRun, reopenStoredRun } = await import('../../engine/stored-run-control');
    // Checks (a completed run, unknown decisions) and records the decisions before the agent loads it.
    await reopenStoredRun(store, runId, reopen);
    const agent = await agents.agentFor(options.agent);
    await (await agent.resumeRun(runId, { store })).result();
    return report(await loadStoredRun(store, runId), options, io);
  } finally {
    await agents.dispose();
    await store.close?.();
  }
}

/** Options of `ideact runs enqueue IDEA`. */
export interface RunsEnqueueOptions extends RunStoreOptions {
  task?: string;
  input?: string;
  maxTurns?: string;
  /** The agent name workers know the Idea by (default: its file name without `.json`). */
  agent?: string;
  wait?: boolean;
}

/**
 * `ideact runs enqueue IDEA --database-url URL`: creates a run of the Idea (its context, `--input`,
 * `--task`) in the workers' store and puts it on their queue, named by the Idea's file name, which
 * `ideact worker --ideas DIR` finds it by.
 */
export async function runsEnqueueCommand(
  ideaFile: string,
  options: RunsEnqueueOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const engine = engineOptionsOf(options);
  if (engine === undefined) {
    throw new CliUsageError({
      option: '--database-url',
      reason: 'is required: runs are enqueued for workers, which use PostgreSQL',
      fix: 'Pass --database-url postgres://… (the one your workers use); `ideact run` runs an Idea here.',
    });
  }
  const input =
    options.input === undefined ? undefined : { value: parseJson(options.input, '--input') };
  const start = await ideaRunStart(ideaFile, input);
  const maxTurns = positiveInteger(options.maxTurns, '--max-turns');
  const { RunQueue } = await import('../../engine/run-queue');
  const queue = new RunQueue(engine);
  try {
    const enqueued = await queue.enqueue({
      ...start,
      agentName: options.agent ?? agentNameOf(ideaFile),
      ...(options.task === undefined ? {} : { task: options.task }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
    });
    if (options.wait !== true) {
      io.stdout(
        options.json === true ? `${JSON.stringify(enqueued)}\n` : `enqueued ${enqueued.runId}\n`,
      );
      return ExitCode.ok;
    }
    await queue.wait(enqueued.runId, { workflowId: enqueued.workflowId });
    const { loadStoredRun } = await import('../../engine/stored-run-control');
    return report(await loadStoredRun(queue.store, enqueued.runId), options, io);
  } finally {
    await queue.close();
  }
}

/** Prints the run (text or JSON, with how to go on when it stopped again); exit 0 when it completed, 1 otherwise. */
function report(
  stored: StoredRun,
  options: RunStoreOptions & { idea?: string; moduleRoot?: string },
  io: CliIo,
): ExitCodeValue {
  // A run resumed here with --idea goes on with that Idea (also when its header names none).
  const origin =
    options.idea === undefined ? undefined : ideaRunOrigin(options.idea, options.moduleRoot);
  const result = runReport(
    stored,
    resumeSuggestion(stored, options, origin === undefined ? {} : { origin }),
  );
  io.stdout(
    options.json === true ? `${JSON.stringify(result, null, 2)}\n` : formatRunReport(result),
  );
  return result.status === 'completed' ? ExitCode.ok : ExitCode.failure;
}

/** `--approve ID`, `--reject ID=reason`, `--edit ID=JSON` as decisions by call id. */
function parseDecisions(options: RunsResumeOptions): Record<string, ApprovalDecision> | undefined {
  const decisions: Record<string, ApprovalDecision> = {};
  for (const callId of options.approve ?? []) decisions[callId] = { approve: true };
  for (const text of options.reject ?? []) {
    const [callId, reason] = splitPair(text, '--reject', 'CALLID=reason');
    decisions[callId] = { reject: reason };
  }
  for (const text of options.edit ?? []) {
    const [callId, json] = splitPair(text, '--edit', 'CALLID={"param":"value"}');
    const params = parseJson(json, '--edit');
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new CliUsageError({
        option: '--edit',
        reason: `the params for ${callId} must be a JSON object`,
        fix: `Pass --edit ${callId}='{"param":"value"}'.`,
      });
    }
    decisions[callId] = { edit: params as Record<string, unknown> };
  }
  return Object.keys(decisions).length === 0 ? undefined : decisions;
}

function splitPair(text: string, option: string, form: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) {
    throw new CliUsageError({
      option,
      reason: `expected ${form}, got "${text}"`,
      fix: `Pass ${option} ${form} (the call id as \`ideact runs show\` lists it).`,
    });
  }
  return [text.slice(0, at), text.slice(at + 1)];
}

function parseJson(text: string, option: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliUsageError({
      option,
      reason: `is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      fix: `Quote the JSON for your shell, e.g. ${option} '{"topic":"rain"}'.`,
    });
  }
}
