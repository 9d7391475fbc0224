import { declareAppendOnly } from '../runs/state-edits';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { InvalidOutputError } from '../errors/invalid-output.error';
import type { Call, CallError } from '../protocol/call';
import { formatIssues, validateJson } from '../protocol/json-validation';
import type { Message } from '../protocol/message';
import { createLimiter } from '../calls/concurrency';
import type { AgentRuntime } from './agent-runtime';
import type { AgentState, VesselMessage } from '../runs/agent-state';
import { assertDecisions, type ConfirmDecision } from './confirm';
import { callParams } from './call-params';
import type { StartedCall } from './started-calls';
import { runVesselCalls } from './vessel-scheduler';
import { toConfirmDecision } from '../calls/call-approval';
import { appendNode, contextView, getNode } from '../runs/state-tree';
import type { StepModule } from './step-module';
import { OUTPUT_CALL, SOLUTION_CALL } from './pseudo-calls';

export { OUTPUT_CALL, SOLUTION_CALL } from './pseudo-calls';

function isCallError(value: unknown): value is CallError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CallError).code === 'string' &&
    typeof (value as CallError).message === 'string'
  );
}

/**
 * The default Actor (R-LOOP-2, R-LOOP-4, R-LOOP-5): runs the chosen Vessel node's Calls through the
 * Executor, in parallel up to `settings.concurrency`, after the `confirm` hook approved, edited or
 * rejected each. Every completed Call's result (and state patches) is appended and checkpointed at
 * once, so a crash never re-runs a completed Call: on resume, Calls whose result nodes exist are
 * skipped. Then it ends the run (a valid non-null output, or no Calls) or hands back to the Prompter.
 * A failed Call's original stack (non-ideact causes) is kept in its result node's `errorStack`. With
 * `activityErrors: 'throw'`, an Activity's bug (ActivityFailedError of a non-ideact error) is recorded,
 * Calls not started yet are skipped, and the step throws it once the running Calls have finished.
 */
export class CallActor implements StepModule {
  async run(agent: AgentRuntime): Promise<void> {
    const { state, settings } = agent;
    const step = state.nextStep;
    if (step.module !== 'actor') {
      throw new InvalidAgentStateError({
        jsonPath: '/nextStep/module',
        reason: 'the Actor runs only when nextStep.module is "actor"',
      });
    }
    const vesselNode = getNode(state, step.args.nodeId, '/nextStep/args/nodeId');
    if (vesselNode.message.type !== 'vessel') {
      throw new InvalidAgentStateError({
        jsonPath: '/nextStep/args/nodeId',
        reason: `node ${vesselNode.id} holds a "${vesselNode.message.type}" message, not a vessel`,
      });
    }
    const vessel: VesselMessage = vesselNode.message;
    const completed = completedCalls(state, vesselNode.id);
    const pending: number[] = [];
    for (let index = 0; index < vessel.calls.length; index++) {
      if (!completed.has(index)) pending.push(index);
    }

    // Plan mode 'lazy' (R-FLOW-5): nothing runs until the plan is approved (`agent.executePlan`).
    if (settings.planMode === 'lazy' && step.args.approved !== true && pending.length > 0) {
      state.nextStep = {
        module: 'done',
        args: {
          reason: 'planned',
          pending: { module: 'actor', args: { nodeId: vesselNode.id, approved: true } },
        },
      };
      return;
    }

    const context = contextView(state, vesselNode.id);
    const started = agent.startedCalls;
    // Most turns start no Call early: no map of them to make (issue 28).
    let early: ReadonlyMap<number, StartedCall> = NO_EARLY_CALLS;
    if (started !== undefined && started.size > 0) {
      const taken = new Map<number, StartedCall>();
      for (const index of pending) {
        const entry = started.take(index, vessel.calls[index] as Call);
        if (entry !== undefined) taken.set(index, entry);
      }
      early = taken;
    }
    const undecided = early.size === 0 ? pending : pending.filter((index) => !early.has(index));
    const decisions =
      (await decide(agent, vesselNode.id, vessel, undecided, context)) ?? NO_DECISIONS;
    const { activityBug, held } = await runVesselCalls({
      agent,
      nodeId: vesselNode.id,
      calls: vessel.calls,
      pending,
      completed,
      decisions,
      early,
      finishOrder: (entry) => started?.finishOrder(entry),
      baseContext: context,
      limiter: started?.limiter ?? createLimiter(settings.concurrency),
    });
    started?.clear();
    if (activityBug !== undefined) throw activityBug;
    if (held.length > 0) {
      // The other Calls ran (those that waited for a held one did not); the run stops, saved, until
      // a person decides: `agent.resume(runId, { decisions })` in this or any process.
      held.sort((left, right) => left - right);
      const awaiting = held.map((index) => `${vesselNode.id}:${index}`);
      if (agent.run?.listened === true) {
        agent.run.emit({
          type: 'approval-requested',
          calls: held.map((index) => ({
            callId: `${vesselNode.id}:${index}`,
            tool: String(vessel.calls[index]?._tool),
            params: callParams(vessel.calls[index] as Call),
          })),
        });
      }
      const args = step.module === 'actor' ? step.args : { nodeId: vesselNode.id };
      state.nextStep = {
        module: 'done',
        args: { reason: 'awaiting_approval', pending: { module: 'actor', args }, awaiting },
      };
      return;
    }
    finishTurn(state, vessel, vesselNode.metadata.solutionError);
  }
}

/** What a turn without early Calls or decisions reads (shared: never changed). */
const NO_EARLY_CALLS: ReadonlyMap<number, StartedCall> = new Map();
const NO_DECISIONS: ReadonlyMap<number, ConfirmDecision> = new Map();

/**
 * A person's decision per Call still undecided, where one was made (R-LOOP-4, issue 18): the
 * decisions stored with an approved plan (`agent.executePlan`), else those given by callId on resume,
 * else the `confirm` hook's (asked in-process for every remaining Call). Calls without one go to the
 * call pipeline's approval policy, which holds those that need approval (the run then stops
 * `awaiting_approval`). Undefined when nobody can decide (the common case).
 */
function decide(
  agent: AgentRuntime,
  nodeId: number,
  vessel: VesselMessage,
  indices: readonly number[],
  context: readonly Message[],
): Promise<Map<number, ConfirmDecision>> | undefined {
  const step = agent.state.nextStep;
  const args = step.module === 'actor' ? step.args : undefined;
  // Nobody to decide (no plan, no answers given on resume, no `confirm` hook): no promise, no map.
  if (
    indices.length === 0 ||
    (args?.decisions === undefined &&
      args?.approvals === undefined &&
      agent.settings.confirm === undefined)
  ) {
    return undefined;
  }
  return decideNow(agent, nodeId, vessel, indices, context, args);
}

async function decideNow(
  agent: AgentRuntime,
  nodeId: number,
  vessel: VesselMessage,
  indices: readonly number[],
  context: readonly Message[],
  args: Extract<AgentState['nextStep'], { module: 'actor' }>['args'] | undefined,
): Promise<Map<number, ConfirmDecision>> {
  const decisions = new Map<number, ConfirmDecision>();
  if (args?.decisions !== undefined) {
    assertDecisions(args.decisions, indices.length, 'plan');
    indices.forEach((index, position) =>
      decisions.set(index, args.decisions?.[position] as ConfirmDecision),
    );
    return decisions;
  }
  const remaining: number[] = [];
  for (const index of indices) {
    const given = args?.approvals?.[`${nodeId}:${index}`];
    if (given === undefined) remaining.push(index);
    else decisions.set(index, toConfirmDecision(vessel.calls[index] as Call, given));
  }
  if (remaining.length === 0) return decisions;
  const confirm = agent.settings.confirm;
  if (confirm !== undefined) {
    if (agent.run?.listened === true) {
      agent.run.emit({
        type: 'approval-requested',
        calls: remaining.map((index) => {
          const call = vessel.calls[index] as Call;
          return {
            callId: `${nodeId}:${index}`,
            tool: String(call._tool),
            params: callParams(call),
          };
        }),
      });
    }
    const answer: unknown = await confirm(
      remaining.map((index) => structuredClone(vessel.calls[index] as Call)),
      structuredClone(context) as Message[],
    );
    assertDecisions(answer, remaining.length);
    remaining.forEach((index, position) =>
      decisions.set(index, answer[position] as ConfirmDecision),
    );
  }
  return decisions;
}

/** Indices of the Vessel node's Calls that already have a result node, and whether each succeeded. */
function completedCalls(state: AgentState, vesselNodeId: number): Map<number, boolean> {
  const done = new Map<number, boolean>();
  // Result nodes come after their Vessel node (nodes are append-only): scan only those.
  for (let id = vesselNodeId + 1; id < state.nodes.length; id++) {
    const node = state.nodes[id];
    const source = node?.metadata.source;
    if (source?.nodeId === vesselNodeId) {
      const message = node?.message;
      done.set(source.callIndex, message?.type === 'result' && message.error === undefined);
    }
  }
  return done;
}

/** R-LOOP-3: a valid non-null output or no Calls ends the run; an invalid output goes back to the LLM. */
function finishTurn(state: AgentState, vessel: VesselMessage, solutionError: unknown): void {
  if (isCallError(solutionError)) {
    // The solution failed validation after some of its Calls had started (eager calls): they were
    // recorded; the model now sees their results and why its solution was rejected.
    appendNode(
      state,
      { type: 'result', call: SOLUTION_CALL, error: solutionError },
      { module: 'actor' },
    );
    state.nextStep = { module: 'prompter', args: {} };
    return;
  }
  if (vessel.output !== null && vessel.output !== undefined) {
    const issues = state.output === undefined ? [] : validateJson(state.output, vessel.output);
    if (issues.length === 0) {
      state.nextStep = { module: 'done', args: { reason: 'output', output: vessel.output } };
      return;
    }
    const error = new InvalidOutputError({ issues: formatIssues(issues) });
    appendNode(
      state,
      { type: 'result', call: OUTPUT_CALL, error: error.toCallError() },
      { module: 'actor' },
    );
    state.nextStep = { module: 'prompter', args: {} };
    return;
  }
  if (vessel.calls.length === 0) {
    state.nextStep = { module: 'done', args: { reason: 'no_calls', output: null } };
    return;
  }
  state.nextStep = { module: 'prompter', args: {} };
}

// It only appends nodes and sets nextStep: the path caches may trust what they checked (issue 28).
declareAppendOnly(CallActor);
