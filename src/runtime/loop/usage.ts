import type { AgentState, TokenUsage } from './agent-state';

/** Zero tokens. */
export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
}

/** The sum of two token counts. */
export function sumUsage(left: TokenUsage, right: Partial<TokenUsage> | undefined): TokenUsage {
  return {
    inputTokens: left.inputTokens + (right?.inputTokens ?? 0),
    outputTokens: left.outputTokens + (right?.outputTokens ?? 0),
    cachedTokens: left.cachedTokens + (right?.cachedTokens ?? 0),
  };
}

/** Adds tokens to the run's totals. */
export function addUsage(state: AgentState, usage: Partial<TokenUsage> | undefined): void {
  Object.assign(state.usage, sumUsage(state.usage, usage));
}
