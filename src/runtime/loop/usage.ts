import { addUsage } from '../../llm/usage';
import type { AgentState, TokenUsage } from './agent-state';

/** Adds tokens to the run's totals (`state.usage`, kept in place). */
export function addRunUsage(state: AgentState, usage: Partial<TokenUsage> | undefined): void {
  Object.assign(state.usage, addUsage(state.usage, usage));
}
