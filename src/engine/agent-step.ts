import { DatabaseConnectionError } from '../errors/database-connection.error';
import { RunNotFoundError } from '../errors/run-not-found.error';
import type { Agent } from '../agent/agent';
import type { AgentState, NextStep, StepModuleName } from '../runs/agent-state';
import { limitConditions, stopWhen } from '../agent/stop-conditions';
import type { JournalEntry, RunHeader, RunStatus, RunStore, StoredRun } from '../runs/run-store';
import { getNode } from '../runs/state-tree';
import { readTool } from '../protocol/read-tool';
import { linkedSignal } from '../internal/linked-signal';
import type { RunSession } from './run-session';
import { TurnWriteBuffer } from './turn-write-buffer';
import { workerRunResult, type WorkerRunResult } from './worker-run-result';

/** What one agent step of a worker needs. @internal */
export interface AgentStepInput {
  store: RunStore;
  runId: string;
  /** The agent that runs this run (built once per workflow execution by the worker). */
  agentFor: (header: RunHeader) => Promise<Agent>;
  /** Aborted when the worker stops: the step is abandoned (never recorded), another worker goes on. */
  stopSignal?: AbortSignal;
  /** Aborted when the run's workflow is cancelled: the run is marked `cancelled`. */
  cancelSignal?: AbortSignal;
  /**
   * Set by the workflow: an Actor step with Calls is not run here but reported (`kind: 'actor'`), so
   * the workflow makes each of its Calls a DBOS step of its own.
   */
  reportActor?: boolean;
  /** The run as the workflow's previous step left it (none: the step loads it from the store). */
  session?: RunSession;
}

/** How one agent step ended. @internal */
export type AgentStepOutcome =
  /** One Actor step, or one model turn (Prompter, Generator, Discriminator), ran and committed. */
  | { kind: 'stepped'; ran: StepModuleName[]; next: StepModuleName; status: RunStatus }
  /**
   * The next step is the Actor's on this Vessel node, whose Calls have these ids (in index order);
   * `moduleCallIds`: those that run a module, so may start a nested agent (a child workflow).
   */
  | { kind: 'actor'; nodeId: number; callIds: string[]; moduleCallIds: string[] }
  /** The run stopped (completed, awaiting approval, a limit, an error, cancelled): the workflow ends. */
  | { kind: 'done'; result: WorkerRunResult }
  /** The worker is stopping: this step's outcome must not be recorded, so a replay runs it again. */
  | { kind: 'abandoned' };

/**
 * One agent step of a worker's run (issue 18), the body of one DBOS step: loads the run from the
 * store, stops it if a limit or stop condition says so, else runs it up to the next point the store
 * resumes from exactly: one Actor step, or one model turn (Prompter, Generator with its model
 * request, Discriminator), each module committed by `run.step()`. The store, not the DBOS step
 * history, says what comes next: a step that committed but whose DBOS record a crash lost is not run
 * again. Inside an Actor step each Call is journaled before it starts and checkpointed when it ends,
 * so a replay never runs a completed Call again and runs a started one again with the same `callId`
 * (at least once). A module Call's nested agent runs as a child workflow (see the run workflow).
 * @internal
 */
export async function runAgentStep(input: AgentStepInput): Promise<AgentStepOutcome> {
  const { store, runId } = input;
  const stored = await (input.session?.take() ?? store.load(runId));
  // The previous Actor step's hand-over commit, when it held one: written with this step's commits.
  const unwritten = input.session?.takeUnwritten() ?? [];
  if (stored === undefined) {
    throw new RunNotFoundError({ runId, location: "the worker's run store" });
  }
  if (stored.status === 'cancelled' || isStopped(stored.state.nextStep)) {
    if (unwritten.length > 0) await store.append(runId, unwritten);
    return { kind: 'done', result: workerRunResult(runId, stored.state, stored.status) };
  }
  const agent = await input.agentFor(stored.header);
  // The step's own signal, released when it ends: the worker's stop signal outlives every step.
  const linked = linkedSignal([input.stopSignal, input.cancelSignal]);
  try {
    return await stepRun(input, stored, unwritten, agent, linked.signal);
  } finally {
    linked.release();
  }
}

/** The part of {@link runAgentStep} after the run was found: resume it with `signal` and step it. */
async function stepRun(
  input: AgentStepInput,
  stored: StoredRun,
  unwritten: readonly JournalEntry[],
  agent: Agent,
  signal: AbortSignal,
): Promise<AgentStepOutcome> {
  const { runId } = input;
  // The turn's commits go out together at the step's end (never a Call's: see TurnWriteBuffer),
  // after what the previous Actor step left unwritten.
  const store = new TurnWriteBuffer(input.store);
  if (unwritten.length > 0) await store.append(runId, unwritten);
  // Read through functions: the signals change while the step awaits.
  const stopping = (): boolean => input.stopSignal?.aborted === true;
  const cancelled = (): boolean => input.cancelSignal?.aborted === true;
  // resumeRun reopens a run a stopping worker left `aborted` (its pending step runs now).
  // Eager calls are off: a Call started inside the model's step could not be a DBOS step of its own.
  const run = agent.resumeLoaded(stored, store, { eagerCalls: false, signal });
  const state = run.state;
  if (state.nextStep.module === 'done') {
    await store.flush();
    return { kind: 'done', result: workerRunResult(runId, state) };
  }
  const stop = stopWhen(...limitConditions(state.limits), ...(agent.config.stopWhen ?? []));
  // Nothing was written: the Actor's session starts from the run as loaded.
  const report = await actorReport(input, agent, state, stop);
  if (report !== undefined) {
    await store.flush();
    input.session?.keep(stored);
    return report;
  }
  const ran: StepModuleName[] = [];
  let next: NextStep = state.nextStep;
  let failure: unknown;
  // One module, or a whole model turn: the store keeps neither the Prompter's rendered prompt nor
  // the Discriminator's messages (it recomputes them), so the modules that pass them on run together.
  // An Actor step without Calls (the answer's Vessel) only commits: it runs in the turn's step too.
  while (
    next.module !== 'done' &&
    (ran.length === 0 || !RESUMABLE_FROM_STORE.has(next.module) || isCallless(state, next))
  ) {
    if (stopping()) return { kind: 'abandoned' };
    const reason = stop(state, {});
    if (reason !== undefined) {
      // What Run.result() does before each step: a limit stops the run with the step as `pending`.
      state.nextStep = { module: 'done', args: { reason, pending: next } };
      await run.checkpoint();
      next = state.nextStep;
      break;
    }
    ran.push(next.module);
    try {
      next = await run.step();
    } catch (error) {
      // The run saved itself stopped (reason `error`) before rethrowing, unless the store failed.
      failure = error;
      next = state.nextStep;
      break;
    }
  }
  await store.flush?.();
  if (cancelled()) {
    await markCancelled(store, runId);
    await store.flush();
    return { kind: 'done', result: workerRunResult(runId, state, 'cancelled') };
  }
  if (stopping() && isAborted(next)) return { kind: 'abandoned' };
  if (
    failure !== undefined &&
    (next.module !== 'done' || DatabaseConnectionError.isInstance(failure))
  ) {
    throw failure;
  }
  if (next.module === 'done') return { kind: 'done', result: workerRunResult(runId, state) };
  // Every module committed (and flushed) what it changed: the next step goes on from this state.
  // Not after an Actor step: its Calls' attempts live in the Run, so the next step reads them back.
  if (failure === undefined && !ran.includes('actor') && !stopping()) {
    input.session?.keep({ ...stored, status: 'running', state });
    // The turn ended at an Actor step with Calls: report it now rather than in a step of its own.
    const report = await actorReport(input, agent, state, stop);
    if (report !== undefined) return report;
  }
  return { kind: 'stepped', ran, next: next.module, status: 'running' };
}

/**
 * The report of the Actor step `state` is at (its Vessel's Calls, those that run a module), for the
 * workflow to make each Call a DBOS step; undefined when the next step is not such an Actor step,
 * has no Calls, or a limit or stop condition stops the run first (the step loop stops it).
 */
async function actorReport(
  input: AgentStepInput,
  agent: Agent,
  state: AgentState,
  stop: (state: AgentState, context: object) => unknown,
): Promise<AgentStepOutcome | undefined> {
  const next = state.nextStep;
  if (input.reportActor !== true || next.module !== 'actor') return undefined;
  const node = getNode(state, next.args.nodeId, '/nextStep/args/nodeId');
  const calls = node.message.type === 'vessel' ? node.message.calls : [];
  if (calls.length === 0 || stop(state, {}) !== undefined) return undefined;
  const modules = await moduleToolNames(agent);
  return {
    kind: 'actor',
    nodeId: node.id,
    callIds: calls.map((_, index) => `${node.id}:${index}`),
    moduleCallIds: calls.flatMap((call, index) =>
      modules.has(String(call._tool)) ? [`${node.id}:${index}`] : [],
    ),
  };
}

/** True when `next` is an Actor step whose Vessel has no Calls. */
function isCallless(state: AgentState, next: NextStep): boolean {
  if (next.module !== 'actor') return false;
  const node = getNode(state, next.args.nodeId, '/nextStep/args/nodeId');
  return node.message.type !== 'vessel' || node.message.calls.length === 0;
}

/**
 * Marks a run whose step a cancellation aborted `cancelled` (the abort committed it as `aborted`),
 * unless a resume (`ideact runs resume`, a new execution) reopened it meanwhile: a late mark would
 * stop the new execution. @internal
 */
export async function markCancelled(store: RunStore, runId: string): Promise<void> {
  const current = await store.load(runId);
  if (current?.status === 'running') return;
  await store.append(runId, [{ type: 'status', status: 'cancelled', time: now() }]);
}

/** Names of the agent's Tools that run a module (`_module`): their Calls may start nested agents. */
async function moduleToolNames(agent: Agent): Promise<Set<string>> {
  const names = new Set<string>();
  for (const tool of await agent.listTools()) {
    let info;
    try {
      info = readTool(tool);
    } catch {
      continue; // the Actor reports an invalid Tool on its Call
    }
    if (info.module !== undefined && (info.activity ?? '') === '') names.add(info.name);
  }
  return names;
}

/**
 * Modules a run loaded from its store starts exactly as the previous module left them: the
 * Prompter (it renders again) and the Actor (its Vessel node is stored). The Generator's prompt and
 * the Discriminator's messages are not stored, so a DBOS step goes on through them.
 */
const RESUMABLE_FROM_STORE: ReadonlySet<StepModuleName> = new Set(['prompter', 'actor']);

/** A stop the worker does not go past: every `done` except `aborted` (a stopping worker's mark). */
function isStopped(step: NextStep): boolean {
  return step.module === 'done' && step.args.reason !== 'aborted';
}

/** A stop by abort (a stopping worker's or a cancel's), which a resume continues. @internal */
export function isAborted(step: NextStep): boolean {
  return step.module === 'done' && step.args.reason === 'aborted';
}

function now(): string {
  return new Date().toISOString();
}
