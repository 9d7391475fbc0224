import type { AgentLimits, AgentState, StopReason } from '../runs/agent-state';
import { isAborted } from '../internal/is-aborted';

/** What a stop condition may look at besides the state. */
export interface StopContext {
  /** The run's abort signal, if any. */
  signal?: AbortSignal;
}

/**
 * Checked before every step (vercel/ai style): returns the reason to stop, or `undefined` to go on.
 * Conditions are small and composable; turn and token limits only fire at a turn boundary (when the
 * Prompter is next), so a stopped run never leaves a turn half done.
 */
export type StopCondition = (
  state: Readonly<AgentState>,
  context: StopContext,
) => StopReason | undefined;

const atTurnBoundary = (state: Readonly<AgentState>): boolean =>
  state.nextStep.module === 'prompter';

/** Stops once `turns` LLM turns (Generator runs) have been made. */
export function maxTurns(turns: number): StopCondition {
  return (state) => (atTurnBoundary(state) && state.usage.turns >= turns ? 'max_turns' : undefined);
}

/** Stops once input + output tokens reach `tokens` (checked between turns, so one turn may overshoot). */
export function maxTokens(tokens: number): StopCondition {
  return (state) =>
    atTurnBoundary(state) && state.usage.inputTokens + state.usage.outputTokens >= tokens
      ? 'max_tokens'
      : undefined;
}

/** Stops once the time spent in steps (over all resumes) reaches `milliseconds`. */
export function maxTime(milliseconds: number): StopCondition {
  return (state) => (state.usage.elapsedMs >= milliseconds ? 'max_time' : undefined);
}

/** Stops when the given signal (or the run's signal) is aborted. */
export function aborted(signal?: AbortSignal): StopCondition {
  return (_state, context) => {
    const watched = signal ?? context.signal;
    return watched !== undefined && isAborted(watched) ? 'aborted' : undefined;
  };
}

/** Combines conditions: the first one that fires wins. */
export function stopWhen(...conditions: StopCondition[]): StopCondition {
  return (state, context) => {
    for (const condition of conditions) {
      const reason = condition(state, context);
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
}

/** The conditions a state's stored limits imply, plus abort (always checked). */
export function limitConditions(limits: AgentLimits): StopCondition[] {
  const conditions: StopCondition[] = [aborted()];
  if (limits.maxTurns !== undefined) conditions.push(maxTurns(limits.maxTurns));
  if (limits.maxTokens !== undefined) conditions.push(maxTokens(limits.maxTokens));
  if (limits.maxTimeMs !== undefined) conditions.push(maxTime(limits.maxTimeMs));
  return conditions;
}
