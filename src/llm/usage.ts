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
  const sum: Usage = {
    inputTokens: left.inputTokens + (right?.inputTokens ?? 0),
    outputTokens: left.outputTokens + (right?.outputTokens ?? 0),
    cachedTokens: left.cachedTokens + (right?.cachedTokens ?? 0),
  };
  // The optional counts appear only once some usage reported them (plain usages stay three fields).
  for (const key of OPTIONAL_COUNTS) {
    if (left[key] !== undefined || right?.[key] !== undefined) {
      sum[key] = (left[key] ?? 0) + (right?.[key] ?? 0);
    }
  }
  return sum;
}

/** The counts only some providers report. */
const OPTIONAL_COUNTS = ['cacheWriteTokens', 'reasoningTokens'] as const;
