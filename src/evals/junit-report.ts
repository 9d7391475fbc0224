import type { CaseResult, ExperimentResult } from './eval-result';

/**
 * An experiment as JUnit XML (issue 33 item 3), the report format CI systems read: one `testsuite`
 * for the cases (a failing case is a `testcase` with a `failure` listing every failed score and its
 * reason; a case whose run failed has an `error`), and one for the thresholds and the baseline.
 */
export function junitReport(result: ExperimentResult): string {
  const suites = [casesSuite(result), checksSuite(result)];
  const tests = result.cases.length + checkCount(result);
  const failures =
    result.cases.filter((item) => !item.passed && !hasError(item)).length +
    result.thresholds.filter((threshold) => !threshold.passed).length +
    (result.baseline !== undefined && result.baseline.regressions > 0 ? 1 : 0);
  const errors = result.cases.filter((item) => !item.passed && hasError(item)).length;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xml(`ideact eval ${result.name}`)}" tests="${tests}" failures="${failures}" errors="${errors}" time="${secondsOf(result.summary.durationMs)}">\n` +
    suites.join('') +
    '</testsuites>\n'
  );
}

function casesSuite(result: ExperimentResult): string {
  const failures = result.cases.filter((item) => !item.passed && !hasError(item)).length;
  const errors = result.cases.filter((item) => !item.passed && hasError(item)).length;
  const properties = [
    ['experiment', result.id],
    ['target', result.target],
    ['provider', result.provider ?? ''],
    ['trials', String(result.trials)],
    ['passRate', result.summary.passRate.toFixed(4)],
    ['meanScore', result.summary.meanScore.toFixed(4)],
  ]
    .map(
      ([name, value]) =>
        `      <property name="${xml(name as string)}" value="${xml(value as string)}"/>\n`,
    )
    .join('');
  const cases = result.cases.map((item) => caseElement(result.name, item)).join('');
  return (
    `  <testsuite name="${xml(result.name)}" tests="${result.cases.length}" failures="${failures}" errors="${errors}" time="${secondsOf(result.summary.durationMs)}" timestamp="${xml(result.startedAt)}">\n` +
    `    <properties>\n${properties}    </properties>\n` +
    cases +
    '  </testsuite>\n'
  );
}

function caseElement(suite: string, item: CaseResult): string {
  const time = secondsOf(item.trials.reduce((sum, trial) => sum + trial.latencyMs, 0));
  const scores = item.trials
    .map(
      (trial) =>
        `trial ${trial.trial} (run ${trial.runId}, ${trial.stopReason}): score ${trial.score.toFixed(2)}\n` +
        trial.scores
          .map(
            (score) =>
              `  ${score.passed ? 'pass' : 'FAIL'} ${score.scorer} ${score.score.toFixed(2)}: ${score.reason}\n`,
          )
          .join(''),
    )
    .join('');
  const open = `    <testcase name="${xml(item.name)}" classname="${xml(suite)}" time="${time}">\n`;
  const out = `      <system-out>${xml(scores)}</system-out>\n`;
  if (item.passed) return `${open}${out}    </testcase>\n`;
  const failed = item.trials.flatMap((trial) =>
    trial.scores
      .filter((score) => !score.passed)
      .map(
        (score) =>
          `${item.trials.length > 1 ? `trial ${trial.trial}: ` : ''}${score.scorer}: ${score.reason}`,
      ),
  );
  const errored = item.trials.find((trial) => trial.error !== undefined);
  const message =
    errored?.error !== undefined
      ? `${errored.error.code}: ${errored.error.message}`
      : (failed[0] ??
        `passed ${Math.round(item.passRate * item.trials.length)} of ${item.trials.length} trial(s)`);
  const tag = errored !== undefined ? 'error' : 'failure';
  const body = [
    `score ${item.score.toFixed(2)}, passed ${Math.round(item.passRate * item.trials.length)} of ${item.trials.length} trial(s)`,
    ...failed,
  ].join('\n');
  return `${open}      <${tag} message="${xml(message)}" type="${errored !== undefined ? xml(errored.error?.code ?? 'error') : 'score'}">${xml(body)}</${tag}>\n${out}    </testcase>\n`;
}

function checksSuite(result: ExperimentResult): string {
  const checks: string[] = result.thresholds.map((threshold) => {
    const open = `    <testcase name="${xml(`threshold ${threshold.name}`)}" classname="${xml(`${result.name}.thresholds`)}" time="0">\n`;
    const text = `${threshold.name} is ${threshold.actual.toFixed(4)}, required ≥ ${threshold.required}`;
    return threshold.passed
      ? `${open}      <system-out>${xml(text)}</system-out>\n    </testcase>\n`
      : `${open}      <failure message="${xml(text)}" type="threshold">${xml(text)}</failure>\n    </testcase>\n`;
  });
  const baseline = result.baseline;
  if (baseline !== undefined) {
    const regressed = baseline.cases.filter((item) => item.change === 'regressed');
    const open = `    <testcase name="${xml(`baseline ${baseline.baselineId}`)}" classname="${xml(`${result.name}.thresholds`)}" time="0">\n`;
    const lines = regressed.map(
      (item) =>
        `${item.name}: ${item.baselineScore?.toFixed(2)} → ${item.score?.toFixed(2)} (${(item.delta ?? 0).toFixed(2)}, tolerance ${baseline.tolerance})`,
    );
    checks.push(
      regressed.length === 0
        ? `${open}      <system-out>${xml(`no case regressed beyond the tolerance ${baseline.tolerance}`)}</system-out>\n    </testcase>\n`
        : `${open}      <failure message="${xml(`${regressed.length} case(s) regressed: ${regressed.map((item) => item.name).join(', ')}`)}" type="regression">${xml(lines.join('\n'))}</failure>\n    </testcase>\n`,
    );
  }
  const failures =
    result.thresholds.filter((threshold) => !threshold.passed).length +
    (baseline !== undefined && baseline.regressions > 0 ? 1 : 0);
  return (
    `  <testsuite name="${xml(`${result.name}.thresholds`)}" tests="${checks.length}" failures="${failures}" errors="0" time="0">\n` +
    checks.join('') +
    '  </testsuite>\n'
  );
}

function checkCount(result: ExperimentResult): number {
  return result.thresholds.length + (result.baseline === undefined ? 0 : 1);
}

function hasError(item: CaseResult): boolean {
  return item.trials.some((trial) => trial.error !== undefined);
}

function secondsOf(milliseconds: number): string {
  return (Math.max(0, milliseconds) / 1000).toFixed(3);
}

/** Text escaped for XML attributes and content; characters XML 1.0 forbids are dropped. */
function xml(text: string): string {
  let allowed = '';
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    const legal =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (legal) allowed += character;
  }
  return allowed
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
