import type { Usage } from '../llm/provider';
import { addUsage } from '../llm/usage';
import type { RunEventUsage } from '../runs/run-event';
import type { AgentState, AgentUsage, TokenUsage } from '../runs/agent-state';

/** Adds tokens to the run's totals (`state.usage`, kept in place). */
export function addRunUsage(state: AgentState, usage: Partial<TokenUsage> | undefined): void {
  Object.assign(state.usage, addUsage(state.usage, usage));
}

/**
 * Accounts one model request of the run (or of its Calls and nested runs) in `state.usage`: the
 * totals, and the breakdown by model and by run path (`path.join('/')`). Every run counts the
 * requests below it, so a root run's usage includes its module sub-requests and nested agents.
 */
export function recordRequestUsage(
  state: AgentState,
  tokens: Usage,
  model: string,
  path: readonly string[],
): void {
  const usage = state.usage;
  addRunUsage(state, tokens);
  usage.byModel = addTo(usage.byModel, model, tokens);
  usage.byPath = addTo(usage.byPath, pathKey(path), tokens);
}

/** Joined paths, per path array: a run context hands the same array to every request it makes. */
const pathKeys = new WeakMap<readonly string[], { length: number; key: string }>();

/** `path.join('/')`, made once per path array (checked against its length: paths only grow). */
function pathKey(path: readonly string[]): string {
  const known = pathKeys.get(path);
  if (known !== undefined && known.length === path.length) return known.key;
  const key = path.join('/');
  pathKeys.set(path, { length: path.length, key });
  return key;
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
  if (usage.cacheWriteTokens !== undefined) copy.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) copy.reasoningTokens = usage.reasoningTokens;
  // The tables are replaced, never changed in place (recordRequestUsage), and so are their rows:
  // a shallow copy is a snapshot.
  if (usage.byModel !== undefined) copy.byModel = { ...usage.byModel };
  if (usage.byPath !== undefined) copy.byPath = { ...usage.byPath };
  return copy;
}
