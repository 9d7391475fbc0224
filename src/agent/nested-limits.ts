/**
 * Default limits of a nested agent (R-MOD-5): enough for a specialist, bounded so a loop cannot run
 * away. In a module of its own, so the package's ES entry reads it without loading the loop.
 */
export const DEFAULT_NESTED_LIMITS = { maxTurns: 10 };
