import type { AgentLimits } from './agent-state';

/**
 * A copy of a run's limits, made key by key: every copy with the same keys then has the same hidden
 * class, however hot the code making it. An object spread's copy switched hidden class once its
 * once-per-run caller was optimized, which deoptimized every function reading the state (issue 28).
 * Every key is kept, unknown ones and `undefined` values included, like a spread. @internal
 */
export function copyLimits(limits: AgentLimits | undefined): AgentLimits {
  const copy: Record<string, unknown> = {};
  if (limits === undefined || limits === null) return copy;
  const source = limits as Record<string, unknown>;
  const keys = Object.keys(source);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    copy[key] = source[key];
  }
  return copy;
}
