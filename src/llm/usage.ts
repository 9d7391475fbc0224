import type { Usage } from './provider';

/** Usage of zero tokens, the start of a sum. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
}

/**
 * Adds two usages field by field (repairs, retries and nested runs count towards one total); a count
 * missing on `right` (a partial or absent usage, e.g. from an older state file) adds nothing.
 */
export function addUsage(left: Usage, right: Partial<Usage> | undefined): Usage {
  return {
    inputTokens: left.inputTokens + (right?.inputTokens ?? 0),
    outputTokens: left.outputTokens + (right?.outputTokens ?? 0),
    cachedTokens: left.cachedTokens + (right?.cachedTokens ?? 0),
  };
}
