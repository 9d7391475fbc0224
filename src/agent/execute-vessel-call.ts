import type { IdeactError } from '../errors/ideact-error';
import { addUsage, emptyUsage } from '../llm/usage';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { Approver, ConfirmDecision } from '../calls/call-approval';
import type { CallOptions } from '../calls/call-types';
import type { AgentRuntime } from './agent-runtime';
import type { AgentState, NodeMetadata, TokenUsage } from '../runs/agent-state';
import { originalStack } from './failed-calls';
import type { CallOutcome } from './started-calls';
import { addRunUsage } from './usage';

/**
 * How the agent loop asks a person about a Call that needs approval and has no decision yet: it
 * holds it (the Call does not run), and the Actor stops the run `awaiting_approval` with it as an
 * interruption, to be decided with `agent.resume(runId, { decisions })`.
 */
const holdForAPerson: Approver = () => ({ hold: true });

/**
 * Runs one Call of a Vessel through the call pipeline for the agent loop (the Actor, and the
 * Generator's eager calls) with what the loop adds: the run's journal (its attempt), its settings and
 * approval rule, a person's `decision` when one was made, and what its result node keeps (its usage,
 * nested states, an Activity bug's stack). A Call the pipeline held comes back `held`.
 * @internal
 */
export async function executeVesselCall(
  agent: AgentRuntime,
  call: Call,
  context: readonly Message[],
  callId: string,
  eager: boolean,
  decision?: ConfirmDecision,
): Promise<CallOutcome> {
  const run = agent.run;
  const settings = agent.settings;
  let callUsage: TokenUsage | undefined;
  let nestedStates: AgentState[] | undefined;
  let failure: IdeactError | undefined;
  const options: CallOptions = {
    signal: settings.signal,
    callId,
    run,
    eager,
    settings: { model: settings.model, temperature: settings.temperature },
    needsApproval: settings.needsApproval,
    approval: holdForAPerson,
    onUsage: (usage: TokenUsage) => {
      callUsage = addUsage(callUsage ?? emptyUsage(), usage);
    },
    onNestedRun: (nested) => {
      (nestedStates ??= []).push(nested as AgentState);
    },
    onError: (error) => {
      failure = error;
    },
  };
  // Set only when there is one (no spread of a literal per Call).
  // Journaled before it runs: a crash from here on makes a resume run it again, attempt + 1.
  if (agent.callStarting !== undefined) options.starting = agent.callStarting;
  if (decision !== undefined) options.decision = decision;
  const messages = await agent.executor.call(call, context, options);
  if (messages.length === 0) return { messages, metadata: {}, held: true };
  const metadata: Partial<NodeMetadata> = {};
  if (nestedStates !== undefined) metadata.nested = nestedStates;
  const stack = failure === undefined ? undefined : originalStack(failure);
  if (stack !== undefined) metadata.errorStack = stack;
  if (
    callUsage !== undefined &&
    callUsage.inputTokens + callUsage.outputTokens + callUsage.cachedTokens > 0
  ) {
    metadata.usage = callUsage;
    // Without a run context (a hand-built runtime) no event counts the run's usage: count it here.
    if (run === undefined) addRunUsage(agent.state, callUsage);
  }
  return failure === undefined ? { messages, metadata } : { messages, metadata, failure };
}
