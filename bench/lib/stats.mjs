/** Small statistics and formatting helpers for the benchmark report. */

/** The median of a list of numbers (mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The `fraction` quantile of a list of numbers (nearest rank): 0.1 gives the 10th percentile, which on
 * a loaded machine is closer to the undisturbed figure than the median.
 */
export function quantile(values, fraction) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

/** The arithmetic mean of a list of numbers. */
export function mean(values) {
  if (values.length === 0) return Number.NaN;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Formats a number with a precision that suits its magnitude (3 significant digits, at least). */
export function formatNumber(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  if (magnitude >= 0.01) return value.toFixed(3);
  return value.toPrecision(3);
}

/** Formats a ratio with three decimals (`n/a` when absent). */
export function formatRatio(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return value.toFixed(3);
}

/** Number of measured runs per figure: BENCH_RUNS (never fewer than 5). */
export function measuredRuns() {
  const requested = Number(process.env.BENCH_RUNS ?? 5);
  return Number.isFinite(requested) ? Math.max(5, Math.floor(requested)) : 5;
}

/**
 * Runs `body` `warmups` times (default once, index -1) as a warm-up, then `runs` times, returning the
 * measured runs' results.
 */
export async function warmAndMeasure(runs, body, warmups = 1) {
  for (let warmup = 0; warmup < warmups; warmup++) await body(-1);
  const results = [];
  for (let index = 0; index < runs; index++) {
    results.push(await body(index));
  }
  return results;
}
