import type { IdeactError } from '../../errors/ideact-error';
import { addUsage, emptyUsage } from '../../llm/usage';
import type { Call } from '../../protocol/call';
import type { Message } from '../../protocol/message';
import type { RunEvent } from '../run-event';
import type { AgentRuntime } from './agent-runtime';
import type { AgentState, NodeMetadata, TokenUsage } from './agent-state';
import { originalStack } from './failed-calls';
import type { CallOutcome } from './started-calls';
import { callParams } from './call-params';
import { addRunUsage } from './usage';

/**
 * Executes one Call of a Vessel for the agent loop (the Actor, and the Generator's eager calls):
 * `call-start` and `call-end` events, the run context its sub-requests and nested runs report
 * through, and what its result node keeps (its usage, nested states, an Activity bug's stack).
 * @internal
 */
export async function executeVesselCall(
  agent: AgentRuntime,
  call: Call,
  context: readonly Message[],
  callId: string,
  eager: boolean,
): Promise<CallOutcome> {
  const run = agent.run;
  const tool = String(call._tool);
  // Journaled before it runs: a crash from here on makes a resume run it again, attempt + 1.
  const attempt = (await agent.callStarting?.(callId)) ?? 1;
  const start = { type: 'call-start' as const, callId, tool, params: callParams(call), eager };
  run?.emit(typeof call._instance === 'string' ? { ...start, instance: call._instance } : start);
  let callUsage = emptyUsage();
  const countUsage = (usage: TokenUsage): void => {
    callUsage = addUsage(callUsage, usage);
  };
  const nestedStates: AgentState[] = [];
  let failure: IdeactError | undefined;
  const messages = await agent.executor.call(call, context, {
    signal: agent.settings.signal,
    callId,
    attempt,
    run: run?.forCall(callId, {
      listener: (event: RunEvent) => {
        if (event.type === 'request-end') countUsage(event.usage);
      },
    }),
    // Without a run context (a hand-built runtime), usage is counted the old way.
    onUsage: run === undefined ? countUsage : undefined,
    onNestedRun: (nested) => {
      nestedStates.push(nested as AgentState);
    },
    onError: (error) => {
      failure = error;
    },
  });
  const metadata: Partial<NodeMetadata> = {};
  if (nestedStates.length > 0) metadata.nested = nestedStates;
  const stack = failure === undefined ? undefined : originalStack(failure);
  if (stack !== undefined) metadata.errorStack = stack;
  if (callUsage.inputTokens + callUsage.outputTokens + callUsage.cachedTokens > 0) {
    metadata.usage = callUsage;
    if (run === undefined) addRunUsage(agent.state, callUsage);
  }
  const result = messages[0];
  if (run !== undefined && result?.type === 'result') {
    const end = { type: 'call-end' as const, callId, tool };
    run.emit(
      result.error === undefined
        ? { ...end, output: result.output }
        : { ...end, error: result.error },
    );
  }
  return failure === undefined ? { messages, metadata } : { messages, metadata, failure };
}
