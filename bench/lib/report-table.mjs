/** Markdown pieces of the benchmark report shared by bench/run.mjs and its section writers. */

/** The lines of a Markdown table. */
export function table(headers, rows) {
  const lines = [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines;
}

/** Why a child's result has no figures (`n/a (…)`), or undefined when it has them. */
export function describe(result) {
  if (!result) return 'n/a (not run)';
  if (result.unavailable) return `n/a (${result.unavailable})`;
  if (result.error) return `n/a (error: ${String(result.error).split('\n')[0]})`;
  return undefined;
}

/** `met` / `MISSED` for a value against its target, `n/a` without a value. */
export function verdict(value, passes) {
  if (value === undefined || value === null || Number.isNaN(value)) return 'n/a';
  return passes(value) ? 'met' : 'MISSED';
}
