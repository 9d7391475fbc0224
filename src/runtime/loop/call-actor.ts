import type { ActivityFailedError } from '../../errors/activity-failed.error';
import { CallRejectedError } from '../../errors/call-rejected.error';
import { InvalidAgentStateError } from '../../errors/invalid-agent-state.error';
import { InvalidOutputError } from '../../errors/invalid-output.error';
import type { Call, CallError } from '../../protocol/call';
import { formatIssues, validateJson } from '../../protocol/json-validation';
import type { Message } from '../../protocol/message';
import { createLimiter } from '../concurrency';
import type { AgentRuntime } from './agent-runtime';
import type { AgentState, NodeMetadata, VesselMessage } from './agent-state';
import { assertDecisions, type ConfirmDecision } from './confirm';
import { isActivityBug } from './failed-calls';
import { callParams, executeVesselCall } from './execute-vessel-call';
import { appendNode, contextView, getNode } from './state-tree';
import type { StartedCall, StartedCalls } from './started-calls';
import type { StepModule } from './step-module';

/** The pseudo-call a result about an invalid final output is attributed to. */
export const OUTPUT_CALL: Call = { _tool: 'output' };

/** The pseudo-call a result about an invalid solution whose Calls had started is attributed to. */
export const SOLUTION_CALL: Call = { _tool: 'solution' };

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
    const pending = vessel.calls
      .map((call, index) => ({ call, index }))
      .filter(({ index }) => !completed.has(index));
    const context = contextView(state, vesselNode.id);

    const started = agent.startedCalls;
    const early = pending.map(({ call, index }) => started?.take(index, call));
    const needApproval = pending.filter((_, position) => early[position] === undefined);
    let decisions: ConfirmDecision[] = pending.map(() => ({ approve: true }));
    if (settings.confirm !== undefined && needApproval.length > 0) {
      agent.run?.emit({
        type: 'approval-requested',
        calls: needApproval.map(({ call, index }) => ({
          callId: `${vesselNode.id}:${index}`,
          tool: String(call._tool),
          params: callParams(call),
        })),
      });
      const answer: unknown = await settings.confirm(
        needApproval.map(({ call }) => structuredClone(call)),
        structuredClone(context) as Message[],
      );
      assertDecisions(answer, needApproval.length);
      let next = 0;
      decisions = pending.map((_, position) =>
        early[position] === undefined ? (answer[next++] as ConfirmDecision) : { approve: true },
      );
    }

    const limiter = started?.limiter ?? createLimiter(settings.concurrency);
    let activityBug: ActivityFailedError | undefined;
    await Promise.all(
      recordingOrder(early, started).map((position) => {
        const { call, index } = pending[position] as { call: Call; index: number };
        const record = async (): Promise<void> => {
          // 'throw' mode: a bug already ends the run, so Calls not started yet wait for the resume.
          const startedCall = early[position];
          if (activityBug !== undefined && startedCall === undefined) return;
          const decision = decisions[position] ?? { approve: true };
          const metadata: NodeMetadata = {
            module: 'actor',
            source: { nodeId: vesselNode.id, callIndex: index },
          };
          let messages: Message[];
          const callId = `${vesselNode.id}:${index}`;
          if ('reject' in decision) {
            const error = new CallRejectedError({ toolName: call._tool, reason: decision.reject });
            messages = [{ type: 'result', call, error: error.toCallError() }];
            metadata.rejected = true;
            agent.run?.emit({
              type: 'call-end',
              callId,
              tool: String(call._tool),
              error: error.toCallError(),
            });
          } else {
            const toRun = 'edit' in decision ? decision.edit : call;
            if ('edit' in decision) metadata.originalCall = call;
            const outcome = await (startedCall?.outcome ??
              executeVesselCall(agent, toRun, context, callId, false));
            messages = outcome.messages;
            Object.assign(metadata, outcome.metadata);
            if (startedCall !== undefined) metadata.eager = true;
            if (settings.activityErrors === 'throw' && isActivityBug(outcome.failure)) {
              activityBug ??= outcome.failure;
            }
          }
          // An abort mid-batch must not record "cancelled" results: the Call did not complete, so a
          // resumed run has to execute it again.
          if (settings.signal?.aborted) throw abortReason(settings.signal);
          recordResult(state, messages, metadata);
          await agent.checkpoint();
        };
        // Calls that started early already run; only the others wait for a slot.
        return early[position] === undefined ? limiter.run(record) : record();
      }),
    );
    started?.clear();
    if (activityBug !== undefined) throw activityBug;
    finishTurn(state, vessel, vesselNode.metadata.solutionError);
  }
}

/**
 * The positions of the pending Calls in the order their results are recorded (R-OUT-8: the last to
 * finish is appended last): the Calls started early that already finished, in the order they
 * finished, then the others, which record as they finish.
 */
function recordingOrder(
  early: ReadonlyArray<StartedCall | undefined>,
  started: StartedCalls | undefined,
): number[] {
  const finished = (position: number): number => {
    const entry = early[position];
    const order = entry === undefined ? undefined : started?.finishOrder(entry);
    return order ?? Number.POSITIVE_INFINITY;
  };
  return early
    .map((_, position) => position)
    .sort((left, right) => finished(left) - finished(right) || left - right);
}

/** Indices of the Vessel node's Calls that already have a result node (a resumed, interrupted Actor). */
function completedCalls(state: AgentState, vesselNodeId: number): Set<number> {
  const done = new Set<number>();
  // Result nodes come after their Vessel node (nodes are append-only): scan only those.
  for (let id = vesselNodeId + 1; id < state.nodes.length; id++) {
    const source = state.nodes[id]?.metadata.source;
    if (source?.nodeId === vesselNodeId) done.add(source.callIndex);
  }
  return done;
}

/** Appends the result node, then its state patches, as a chain under the head. */
function recordResult(state: AgentState, messages: Message[], metadata: NodeMetadata): void {
  const [result, ...patches] = messages;
  if (result === undefined) return;
  const resultNode = appendNode(state, result, metadata);
  for (const patch of patches)
    appendNode(state, patch, { module: 'actor', patchOf: resultNode.id });
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

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('The run was aborted.');
}
