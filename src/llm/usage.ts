import type { Usage } from './provider';

/** Usage of zero tokens, the start of a sum. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
}

/** Adds two usages field by field (repairs and retries count towards one request). */
export function addUsage(left: Usage, right: Usage): Usage {
  return {
    inputTokens: left.inputTokens + right.inputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    cachedTokens: left.cachedTokens + right.cachedTokens,
  };
}
