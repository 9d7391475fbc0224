import type { Usage } from '../../llm/provider';
import { addUsage } from '../../llm/usage';
import type { RequestEndEvent, RunEventUsage } from '../run-event';
import type { AgentState, AgentUsage, TokenUsage } from './agent-state';

/** Adds tokens to the run's totals (`state.usage`, kept in place). */
export function addRunUsage(state: AgentState, usage: Partial<TokenUsage> | undefined): void {
  Object.assign(state.usage, addUsage(state.usage, usage));
}

/**
 * Accounts one model request of the run (or of its Calls and nested runs) in `state.usage`: the
 * totals, and the breakdown by model and by run path (`path.join('/')`). Every run counts the
 * requests below it, so a root run's usage includes its module sub-requests and nested agents.
 */
export function recordRequestUsage(state: AgentState, event: RequestEndEvent): void {
  const usage = state.usage;
  addRunUsage(state, event.usage);
  usage.byModel = addTo(usage.byModel, event.model, event.usage);
  usage.byPath = addTo(usage.byPath, event.path.join('/'), event.usage);
}

function addTo(
  breakdown: Record<string, Usage> | undefined,
  key: string,
  usage: Usage,
): Record<string, Usage> {
  // A new table each time: a step's rollback mark shares the old one and must not see the change.
  const table = { ...breakdown };
  table[key] = addUsage(table[key] ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0 }, usage);
  return table;
}

/** A copy of the run's usage as events carry it (plain JSON, not the live state object). */
export function runEventUsage(usage: AgentUsage): RunEventUsage {
  const copy: RunEventUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedTokens,
    steps: usage.steps,
    turns: usage.turns,
    elapsedMs: usage.elapsedMs,
  };
  // The tables are replaced, never changed in place (recordRequestUsage), and so are their rows:
  // a shallow copy is a snapshot.
  if (usage.byModel !== undefined) copy.byModel = { ...usage.byModel };
  if (usage.byPath !== undefined) copy.byPath = { ...usage.byPath };
  return copy;
}
