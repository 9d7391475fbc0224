import { AsyncLocalStorage } from 'node:async_hooks';
import type { AgentState } from './agent-state';

const storage = new AsyncLocalStorage<AgentState[]>();

/**
 * Runs `task` (one Call) and collects the final states of the nested agents it ran (R-MOD-5), so the
 * Actor can keep them under the Call's result node. Async-context based because the Executor, not the
 * Actor, decides when a module runs.
 * @internal
 */
export async function collectNestedStates<T>(
  task: () => Promise<T>,
): Promise<{ value: T; states: AgentState[] }> {
  const states: AgentState[] = [];
  const value = await storage.run(states, task);
  return { value, states };
}

/** Called by the nested-agent module runner with the nested run's final state. @internal */
export function reportNestedState(state: AgentState): void {
  storage.getStore()?.push(state);
}
