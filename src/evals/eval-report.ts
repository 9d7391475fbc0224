import type { CaseResult, ExperimentResult } from './eval-result';

/**
 * An experiment as text for a terminal (issue 33 item 3): a table of the cases (score, spread with
 * trials, passed trials, and the reason of the first failed score), the summary line, the thresholds
 * and, with a baseline, the cases that moved.
 */
export function formatEvalReport(result: ExperimentResult): string {
  const many = result.trials > 1;
  const header = [
    'case',
    'score',
    ...(many ? ['spread', `pass@${result.trials}`] : []),
    'trials',
    'result',
    'why',
  ];
  const rows = result.cases.map((item) => [
    item.name,
    item.score.toFixed(2),
    ...(many ? [`±${item.spread.stddev.toFixed(2)}`, item.passAtK.toFixed(2)] : []),
    `${Math.round(item.passRate * item.trials.length)}/${item.trials.length}`,
    item.passed ? 'pass' : 'FAIL',
    whyOf(item),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) =>
        column === cells.length - 1
          ? cell
          : column === 0
            ? cell.padEnd(widths[column] as number)
            : cell.padStart(widths[column] as number),
      )
      .join('  ')
      .trimEnd();
  const summary = result.summary;
  const tokens = summary.usage.inputTokens + summary.usage.outputTokens;
  const judgeTokens = summary.judgeUsage.inputTokens + summary.judgeUsage.outputTokens;
  const out = [
    line(header),
    ...rows.map(line),
    '',
    `passed ${summary.passedCases} of ${summary.cases} case(s) · pass rate ${summary.passRate.toFixed(2)}` +
      (many ? ` · pass@${result.trials} ${summary.passAtK.toFixed(2)}` : '') +
      ` · mean score ${summary.meanScore.toFixed(2)} · ${summary.trials} run(s) in ${(summary.durationMs / 1000).toFixed(1)}s · ${tokens} tokens` +
      (judgeTokens > 0 ? ` (+${judgeTokens} judge)` : '') +
      (summary.errors > 0 ? ` · ${summary.errors} run(s) failed` : ''),
  ];
  const scorerLine = Object.entries(summary.scorers)
    .map(([name, scorer]) => `${name} ${scorer.mean.toFixed(2)}`)
    .join(' · ');
  if (scorerLine !== '') out.push(`scorers: ${scorerLine}`);
  for (const threshold of result.thresholds) {
    out.push(
      `${threshold.passed ? '✓' : '✗'} threshold ${threshold.name}: ${threshold.actual.toFixed(2)} ${threshold.passed ? '≥' : '<'} ${threshold.required}`,
    );
  }
  const baseline = result.baseline;
  if (baseline !== undefined) {
    out.push(
      `${baseline.regressions === 0 ? '✓' : '✗'} baseline ${baseline.baselineId}: ${baseline.regressions} regressed, ${baseline.improvements} improved (tolerance ${baseline.tolerance}, mean score ${signed(baseline.meanScoreDelta)})`,
    );
    for (const item of baseline.cases) {
      if (item.change === 'same') continue;
      const scores =
        item.change === 'added'
          ? `new, ${item.score?.toFixed(2)}`
          : item.change === 'removed'
            ? `was ${item.baselineScore?.toFixed(2)}`
            : `${item.baselineScore?.toFixed(2)} → ${item.score?.toFixed(2)} (${signed(item.delta ?? 0)})`;
      out.push(`  ${item.change} ${item.name}: ${scores}`);
    }
  }
  out.push(`experiment ${result.id}: ${result.passed ? 'passed' : 'FAILED'}`);
  return `${out.join('\n')}\n`;
}

/** The reason of a failing case: its run's error, else its first failed score; empty when it passed. */
function whyOf(item: CaseResult): string {
  if (item.passed) return '';
  for (const trial of item.trials) {
    if (trial.error !== undefined)
      return `run failed: ${trial.error.code}: ${oneLine(trial.error.message)}`;
    const failed = trial.scores.find((score) => !score.passed);
    if (failed !== undefined) return `${failed.scorer}: ${oneLine(failed.reason)}`;
  }
  return '';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= 100 ? flat : `${flat.slice(0, 99)}…`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}
