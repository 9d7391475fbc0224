import type { Call } from '../protocol/call';
import type { Agent } from '../agent/agent';
import type { RunOptions } from '../agent/agent-options';
import type { AgentState } from '../runs/agent-state';
import type { Run } from '../agent/run';
import type { StopCondition } from '../agent/stop-conditions';
import { appendNode, createInitialState } from '../runs/state-tree';

/**
 * A run of exactly one Call (the playground's "Run" of a Tool): a state whose only node is a Vessel
 * holding the Call, next step the Actor, so the Call runs as in any agent run (params checked,
 * approvals, modules with their sub-requests, events, the run store), and the run stops once it ran.
 */
export function startCallRun(agent: Agent, call: Call, options: Omit<RunOptions, 'state'>): Run {
  const state = createInitialState();
  const vessel = appendNode(
    state,
    { type: 'vessel', calls: [call], output: null },
    { module: 'user' },
  );
  state.nextStep = { module: 'actor', args: { nodeId: vessel.id } };
  // The state is new (made here), so the run is not a resumed one (its run-start says so).
  return agent.start({
    ...options,
    state,
    newState: true,
    stopWhen: [...(options.stopWhen ?? []), callRunDone],
  });
}

/**
 * Stops a one-Call run once its Actor is done (instead of asking the model for another turn):
 * `error` when the Call's result is an error, else `no_calls` (a completed run). Pass it again
 * when resuming such a run (`agent.resumeRun(runId, { stopWhen: [callRunDone] })`).
 */
export const callRunDone: StopCondition = (state: Readonly<AgentState>) => {
  if (state.nextStep.module !== 'prompter') return undefined;
  const failed = state.nodes.some(
    (node) => node.message.type === 'result' && node.message.error !== undefined,
  );
  return failed ? 'error' : 'no_calls';
};
