import type { ActivityFailedError } from '../errors/activity-failed.error';
import { DependencyCycleError } from '../errors/dependency-cycle.error';
import { DependencyFailedError } from '../errors/dependency-failed.error';
import type { IdeactError } from '../errors/ideact-error';
import type { Call } from '../protocol/call';
import {
  callDependencies,
  dependencyCycles,
  holdsReferences,
  type CallDependencies,
} from '../protocol/call-dependencies';
import { readTool } from '../protocol/read-tool';
import type { Message } from '../protocol/message';
import { resolveReferences } from '../protocol/resolve-references';
import type { Limiter } from '../calls/concurrency';
import type { AgentRuntime } from './agent-runtime';
import type { AgentState, NodeMetadata } from '../runs/agent-state';
import { decidedCall, type ConfirmDecision } from '../calls/call-approval';
import { executeVesselCall } from './execute-vessel-call';
import { isActivityBug } from './failed-calls';
import type { CallOutcome, StartedCall } from './started-calls';
import { appendNode, contextView } from '../runs/state-tree';
import { isAborted } from '../internal/is-aborted';

/** What {@link runVesselCalls} schedules: one Vessel node's Calls and what is known about them. @internal */
export interface VesselRun {
  agent: AgentRuntime;
  /** The Vessel node's id (Call ids are `<nodeId>:<index>`). */
  nodeId: number;
  /** All Calls of the Vessel, by index. */
  calls: readonly Call[];
  /** Indices of the Calls to run now (those without a result yet). */
  pending: readonly number[];
  /** Calls recorded by an earlier (interrupted) Actor: index → whether they succeeded. */
  completed: ReadonlyMap<number, boolean>;
  /**
   * A person's decision per pending Call, when one was made (the `confirm` hook, a plan's or a
   * resume's decisions); the others go to the call pipeline's approval policy, which holds those
   * that need approval.
   */
  decisions: ReadonlyMap<number, ConfirmDecision>;
  /** Calls the Generator started while the model was writing (eager calls). */
  early: ReadonlyMap<number, StartedCall>;
  /** When an early Call finished among the early ones (1, 2…), undefined while it runs. */
  finishOrder?: (entry: StartedCall) => number | undefined;
  /** The context of Calls that wait for nothing: the conversation up to the Vessel. */
  baseContext: readonly Message[];
  limiter: Limiter;
}

type Readiness = { ready: true } | { ready: false } | { error: IdeactError };

/** What running a Vessel's Calls ended with: the Activity bug that stops the run, the held Calls. @internal */
export interface VesselCallsOutcome {
  /** Set under `activityErrors: 'throw'` when an Activity had a bug: the run ends with it. */
  activityBug?: ActivityFailedError;
  /** Indices of the Calls held for a person's approval (they did not run; no result). */
  held: number[];
}

/**
 * Runs a Vessel's Calls as a dataflow graph (R-FLOW-1..4): a Call whose `†` references read a path
 * that another Call of the Vessel writes waits for that write (`a && b` for all, `a || b` for the
 * first present alternative); the others start at once, in parallel (up to the limiter). Cycles and
 * failed producers fail their Calls with typed errors. Each Call goes through the call pipeline;
 * each result is recorded (and checkpointed) as it completes; a Call the pipeline held for approval
 * records nothing, and the Calls waiting for it wait.
 * @internal
 */
export async function runVesselCalls(input: VesselRun): Promise<VesselCallsOutcome> {
  const { agent, calls, nodeId } = input;
  const state = agent.state;
  const settings = agent.settings;
  // The Calls as they will run (an edit replaces one), for the dataflow: the pipeline applies the same.
  const toRun =
    input.decisions.size === 0
      ? calls
      : calls.map((call, index) => decidedCall(call, input.decisions.get(index)));
  const held: number[] = [];
  const referencing = holdsReferences(toRun);
  // Without references no Call waits for another: no dependencies, no record of who finished.
  const dependencies = referencing
    ? callDependencies(toRun, { fixedOutputPath: await fixedOutputPaths(agent) })
    : undefined;
  const finished = referencing ? new Map<number, boolean>(input.completed) : undefined;
  // Calls that started early and already finished record first, in the order they finished (R-OUT-8:
  // writes land in finishing order); the rest record as they finish.
  const finishedAt = (index: number): number => {
    const entry = input.early.get(index);
    return (entry === undefined ? undefined : input.finishOrder?.(entry)) ?? Infinity;
  };
  const order =
    input.early.size === 0
      ? input.pending
      : [...input.pending].sort(
          (left, right) => finishedAt(left) - finishedAt(right) || left - right,
        );
  const waiting = new Set(order);
  let activityBug: ActivityFailedError | undefined;

  /**
   * Records a Call's result and checkpoints it; the promise of the commit when the step waits for
   * it. Not async: a Vessel of 100 Calls records 100 times (issue 28).
   */
  const record = (
    index: number,
    messages: Message[],
    extra: Partial<NodeMetadata>,
    outcomeMetadata?: Partial<NodeMetadata>,
    eager = false,
  ): Promise<void> | undefined => {
    // An abort mid-batch must not record "cancelled" results: the Call did not complete, so a
    // resumed run has to execute it again.
    if (settings.signal !== undefined && isAborted(settings.signal))
      return Promise.reject(abortReason(settings.signal));
    const metadata: NodeMetadata = { module: 'actor', source: { nodeId, callIndex: index } };
    Object.assign(metadata, extra);
    if (outcomeMetadata !== undefined) Object.assign(metadata, outcomeMetadata);
    if (eager) metadata.eager = true;
    recordResult(state, messages, metadata);
    finished?.set(index, messages[0]?.type === 'result' && messages[0].error === undefined);
    const saved = agent.checkpoint();
    // Written in the background, the result still goes out before any later Call's start (R-LOOP-5).
    return agent.commitsInBackground !== true ? saved : undefined;
  };

  /** A Call that never reaches the pipeline (a dependency cycle, a failed producer) fails here. */
  const fail = (index: number, error: IdeactError) => {
    const call = calls[index] as Call;
    const callError = error.toCallError();
    if (agent.run?.listened === true) {
      agent.run.emit({
        type: 'call-end',
        callId: `${nodeId}:${index}`,
        tool: String(call._tool),
        error: callError,
      });
    }
    return record(index, [{ type: 'result', call, error: callError }], {});
  };

  const launch = (index: number): Promise<void> => {
    const call = calls[index] as Call;
    const callId = `${nodeId}:${index}`;
    const decision = input.decisions.get(index);
    const extra: Partial<NodeMetadata> =
      decision === undefined
        ? {}
        : 'edit' in decision
          ? { originalCall: call }
          : 'reject' in decision
            ? { rejected: true }
            : {};
    const finish = (outcome: CallOutcome, eager: boolean): Promise<void> | undefined => {
      if (outcome.held === true) {
        held.push(index);
        return undefined;
      }
      if (settings.activityErrors === 'throw' && isActivityBug(outcome.failure)) {
        activityBug ??= outcome.failure;
      }
      return record(index, outcome.messages, extra, outcome.metadata, eager);
    };
    const started = input.early.get(index);
    if (started !== undefined) return started.outcome.then((outcome) => finish(outcome, true));
    // A Call that waited for others reads the context as it is now (their results recorded).
    const context =
      (dependencies?.[index]?.dependsOn.length ?? 0) > 0
        ? contextView(state, state.head).slice()
        : input.baseContext;
    const gate = agent.callGate;
    return input.limiter.run(async () => {
      // 'throw' mode: a bug already ends the run, so Calls not started yet wait for the resume.
      if (activityBug !== undefined) {
        waiting.add(index);
        return;
      }
      // No gate (the common case): no closure and no extra async frame per Call (issue 28).
      if (gate === undefined) {
        await finish(await executeVesselCall(agent, call, context, callId, false, decision), false);
        return;
      }
      await gate(callId, async () => {
        await finish(await executeVesselCall(agent, call, context, callId, false, decision), false);
      });
    });
  };

  const outcome = (): VesselCallsOutcome =>
    activityBug === undefined ? { held } : { activityBug, held };
  if (dependencies === undefined || finished === undefined) {
    // No Call reads what another writes (the common case): all start at once, in order, under the
    // limiter — no dataflow schedule to keep (issue 28).
    waiting.clear();
    if (order.length === 1) await launch(order[0] as number);
    else await Promise.all(order.map(launch));
    return outcome();
  }
  return runDataflow({
    input,
    toRun,
    dependencies,
    finished,
    waiting,
    launch,
    fail,
    stopped: () => activityBug !== undefined,
    outcome,
  });
}

/** What {@link runDataflow} needs of {@link runVesselCalls}'s schedule. */
interface Dataflow {
  input: VesselRun;
  /** The Calls as they will run (decisions applied). */
  toRun: readonly Call[];
  dependencies: readonly CallDependencies[];
  /** Calls that finished: index → whether they succeeded. */
  finished: ReadonlyMap<number, boolean>;
  /** Calls not started yet. */
  waiting: Set<number>;
  launch: (index: number) => Promise<void>;
  fail: (index: number, error: IdeactError) => Promise<void> | undefined;
  /** An Activity bug stopped the Vessel ('throw' mode): Calls not started yet wait for the resume. */
  stopped: () => boolean;
  outcome: () => VesselCallsOutcome;
}

/**
 * The Vessel's Calls when some read what others write (R-FLOW-1..4): each starts once its producers
 * finished. Apart from `runVesselCalls`, whose common case (no references) runs every turn.
 */
async function runDataflow(flow: Dataflow): Promise<VesselCallsOutcome> {
  const { input, toRun, dependencies, finished, waiting, launch, fail } = flow;
  const { calls, nodeId } = input;
  const state = input.agent.state;
  const inFlight = new Map<number, Promise<void>>();

  // Calls in a cycle can never start: they fail at once (their dependants then fail as dependants).
  for (const cycle of dependencyCycles(dependencies)) {
    const chain = [...cycle, cycle[0] as number].map(
      (index) => `${nodeId}:${index} ${String(calls[index]?._tool)}`,
    );
    for (const index of cycle) {
      if (!waiting.delete(index)) continue;
      await fail(index, new DependencyCycleError({ toolName: String(calls[index]?._tool), chain }));
    }
  }

  for (;;) {
    let progressed = false;
    for (const index of [...waiting]) {
      if (flow.stopped() && !input.early.has(index)) break;
      const readiness = readinessOf(index, toRun, dependencies, finished, state, calls, nodeId);
      if ('ready' in readiness && !readiness.ready) continue;
      waiting.delete(index);
      progressed = true;
      if ('error' in readiness) {
        await fail(index, readiness.error);
        continue;
      }
      const running = launch(index).finally(() => inFlight.delete(index));
      inFlight.set(index, running);
    }
    if (progressed) continue;
    if (inFlight.size === 0) break;
    await Promise.race(inFlight.values());
  }
  // Calls still waiting here were skipped by 'throw' mode or wait for a held Call; they run when
  // the run is resumed.
  return flow.outcome();
}

/**
 * Whether a Call may start: every reference expression has an alternative (in order) whose
 * producers all finished and whose paths are present; an alternative with unfinished producers makes
 * it wait; when no alternative is present and a producer failed, it fails naming that Call.
 */
function readinessOf(
  index: number,
  toRun: readonly Call[],
  dependencies: readonly CallDependencies[],
  finished: ReadonlyMap<number, boolean>,
  state: AgentState,
  calls: readonly Call[],
  nodeId: number,
): Readiness {
  const own = dependencies[index];
  if (own === undefined || own.dependsOn.length === 0) return { ready: true };
  const call = toRun[index] as Call;
  const instance = typeof call._instance === 'string' ? call._instance : undefined;
  let context: readonly Message[] | undefined;
  for (const expression of own.expressions) {
    let present = false;
    let failedProducer: number | undefined;
    for (const group of expression.groups) {
      if (group.producers.some((producer) => !finished.has(producer))) return { ready: false };
      const failed = group.producers.find((producer) => finished.get(producer) === false);
      if (failed !== undefined) {
        failedProducer ??= failed;
        continue;
      }
      context ??= contextView(state, state.head);
      if (resolves(group.text, context, instance)) {
        present = true;
        break;
      }
    }
    if (!present && failedProducer !== undefined) {
      const failed = calls[failedProducer] as Call;
      return {
        error: new DependencyFailedError({
          toolName: String(call._tool),
          reference: expression.text,
          failedCallId: `${nodeId}:${failedProducer}`,
          failedTool: String(failed._tool),
        }),
      };
    }
    // Not present and no producer failed: the Call runs and reports UNRESOLVED_REFERENCE itself.
  }
  return { ready: true };
}

/** The output path each Tool fixes (`_outputPath: { const }`), looked up by a Call's `_tool`. */
async function fixedOutputPaths(agent: AgentRuntime): Promise<(call: Call) => string | undefined> {
  const fixed = new Map<string, string>();
  for (const tool of await agent.toolkit.list()) {
    try {
      const info = readTool(tool);
      if (info.outputPath.mode === 'fixed') fixed.set(info.name, info.outputPath.path);
    } catch {
      // A malformed tool fails its own Calls when they run.
    }
  }
  return (call) => fixed.get(String(call._tool));
}

function resolves(
  reference: string,
  context: readonly Message[],
  instance: string | undefined,
): boolean {
  try {
    resolveReferences({ value: reference }, context, instance);
    return true;
  } catch {
    return false;
  }
}

/** Appends the result node, then its state patches, as a chain under the head. */
function recordResult(state: AgentState, messages: Message[], metadata: NodeMetadata): void {
  const [result, ...patches] = messages;
  if (result === undefined) return;
  const resultNode = appendNode(state, result, metadata);
  for (const patch of patches)
    appendNode(state, patch, { module: 'actor', patchOf: resultNode.id });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('The run was aborted.');
}
