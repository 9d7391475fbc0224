import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import {
  compareExperiments,
  ExperimentStore,
  formatEvalReport,
  junitReport,
  runEval,
  type ExperimentResult,
  type ProviderRequest,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { ANSWERS, capitalCases, capitalFolder, capitalScript, countryOf } from './eval-fixtures';

/**
 * Issue 33 item 3: what an experiment produces besides its numbers — the comparison with a baseline
 * (regressions beyond the tolerance fail it), JUnit XML that a real XML parser reads and that names
 * the failing cases, the terminal table, and the experiments folder the playground reads.
 */

let dir: string;
beforeAll(async () => {
  dir = await capitalFolder();
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The capital eval with the model's answers `answers` (country → capital). */
function capitalEval(
  answers: Record<string, string>,
  options: Parameters<typeof runEval>[1] = {},
): Promise<ExperimentResult> {
  const provider = new ScriptedProvider((request: ProviderRequest) => ({
    calls: [],
    output: { capital: answers[countryOf(request)] },
  }));
  return runEval(
    {
      name: 'capitals',
      target: { idea: 'capital.json' },
      cases: capitalCases,
      scorers: [{ type: 'equals', path: 'capital' }, { type: 'schema' }],
      thresholds: { passRate: 0.5 },
    },
    { baseDir: dir, provider, ...options },
  );
}

describe('baseline comparison (issue 33 item 3)', () => {
  it('a case whose score fell below the baseline regressed and fails the experiment; a rise is an improvement', async () => {
    const baseline = await capitalEval(ANSWERS); // peru wrong: 0.5
    const worse = await capitalEval({ ...ANSWERS, Japan: 'Kyoto', Peru: 'Lima' }, { baseline });
    expect(worse.baseline).toMatchObject({
      baselineId: baseline.id,
      experimentId: worse.id,
      tolerance: 0,
      regressions: 1,
      improvements: 1,
      meanScoreDelta: 0,
    });
    expect(worse.baseline!.cases).toEqual([
      {
        name: 'france',
        change: 'same',
        baselineScore: 1,
        score: 1,
        delta: 0,
        baselinePassed: true,
        passed: true,
      },
      {
        name: 'japan',
        change: 'regressed',
        baselineScore: 1,
        score: 0.5,
        delta: -0.5,
        baselinePassed: true,
        passed: false,
      },
      {
        name: 'peru',
        change: 'improved',
        baselineScore: 0.5,
        score: 1,
        delta: 0.5,
        baselinePassed: false,
        passed: true,
      },
    ]);
    // The threshold (passRate 0.5) holds; the regression alone fails it.
    expect(worse.thresholds.every((threshold) => threshold.passed)).toBe(true);
    expect(worse.passed).toBe(false);
  });

  it('within the tolerance a drop is not a regression; added and removed cases are listed, not failed', async () => {
    const baseline = await capitalEval(ANSWERS);
    const same = await capitalEval(ANSWERS, { baseline, tolerance: 0.5 });
    expect(same.baseline!.regressions).toBe(0);
    expect(same.passed).toBe(true);
    const renamed = {
      ...same,
      cases: same.cases.map((item) => (item.name === 'peru' ? { ...item, name: 'lima' } : item)),
    };
    const diff = compareExperiments(baseline, renamed);
    expect(
      diff.cases.filter((item) => item.change === 'added' || item.change === 'removed'),
    ).toEqual([
      { name: 'lima', change: 'added', score: 0.5, passed: false },
      { name: 'peru', change: 'removed', baselineScore: 0.5, baselinePassed: false },
    ]);
    expect(diff.regressions).toBe(0);
  });
});

describe('JUnit XML (issue 33 item 3)', () => {
  it('parses with a real XML parser and names the failing case, its failed score and reason; thresholds are test cases too', async () => {
    const baseline = await capitalEval(ANSWERS);
    const result = await capitalEval({ ...ANSWERS, Japan: 'Kyoto & <Osaka>' }, { baseline });
    const xml = junitReport(result);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
    });
    const parsed = parser.parse(xml, true) as {
      testsuites: {
        tests: string;
        failures: string;
        errors: string;
        testsuite: Array<{
          name: string;
          tests: string;
          failures: string;
          testcase: Array<{
            name: string;
            classname: string;
            failure?: { message: string; type: string; '#text': string };
            'system-out'?: string;
          }>;
          properties?: { property: Array<{ name: string; value: string }> };
        }>;
      };
    };
    const [cases, checks] = parsed.testsuites.testsuite;
    expect(cases!.name).toBe('capitals');
    expect(cases!.tests).toBe('3');
    expect(cases!.failures).toBe('2');
    expect(cases!.properties!.property).toContainEqual({ name: 'experiment', value: result.id });
    const failing = cases!.testcase
      .filter((item) => item.failure !== undefined)
      .map((item) => item.name);
    expect(failing).toEqual(['japan', 'peru']);
    const japan = cases!.testcase.find((item) => item.name === 'japan')!;
    expect(japan.classname).toBe('capitals');
    expect(japan.failure!.type).toBe('score');
    // Escaped in the file, the reason reads as written once parsed.
    expect(japan.failure!.message).toBe(
      'equals(capital): capital is "Kyoto & <Osaka>", expected "Tokyo"',
    );
    expect(japan.failure!['#text']).toContain(
      'equals(capital): capital is "Kyoto & <Osaka>", expected "Tokyo"',
    );
    expect(cases!.testcase.find((item) => item.name === 'france')!.failure).toBeUndefined();
    expect(checks!.testcase.map((item) => [item.name, item.failure !== undefined])).toEqual([
      ['threshold passRate', true],
      [`baseline ${baseline.id}`, true],
    ]);
    expect(checks!.testcase[1]!.failure!.message).toBe('1 case(s) regressed: japan');
    expect(checks!.testcase[0]!.failure!.message).toBe('passRate is 0.3333, required ≥ 0.5');
    // Two failing cases, the threshold and the regression.
    expect(parsed.testsuites.failures).toBe('4');
    expect(parsed.testsuites.errors).toBe('0');
  });
});

describe('the terminal report and the experiments folder (issue 33 item 3)', () => {
  it('formats the case table with the failing reason, the summary, thresholds and the baseline', async () => {
    const baseline = await capitalEval(ANSWERS);
    const result = await capitalEval({ ...ANSWERS, Japan: 'Kyoto' }, { baseline });
    const text = formatEvalReport(result);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^case\s+score\s+trials\s+result\s+why$/);
    expect(lines[1]).toMatch(/^france\s+1\.00\s+1\/1\s+pass$/);
    expect(lines[2]).toMatch(
      /^japan\s+0\.50\s+0\/1\s+FAIL\s+equals\(capital\): capital is "Kyoto", expected "Tokyo"$/,
    );
    expect(lines[3]).toMatch(
      /^peru\s+0\.50\s+0\/1\s+FAIL\s+equals\(capital\): capital is "Cusco", expected "Lima"$/,
    );
    expect(text).toContain(
      'passed 1 of 3 case(s) · pass rate 0.33 · mean score 0.67 · 3 run(s) in',
    );
    expect(text).toContain('scorers: equals(capital) 0.33 · schema 1.00');
    expect(text).toContain('✗ threshold passRate: 0.33 < 0.5');
    expect(text).toContain(
      `✗ baseline ${baseline.id}: 1 regressed, 0 improved (tolerance 0, mean score −0.17)`,
    );
    expect(text).toContain('  regressed japan: 1.00 → 0.50 (−0.50)');
    expect(text.trimEnd().split('\n').at(-1)).toBe(`experiment ${result.id}: FAILED`);
  });

  it('saves experiments (results and each case run’s events) and lists them newest first', async () => {
    const experiments = new ExperimentStore(path.join(dir, 'evals'));
    const first = await capitalEval(ANSWERS, { experiments });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await capitalEval({ ...ANSWERS, Peru: 'Lima' }, { experiments });
    const listed = await experiments.list();
    expect(listed.map((row) => row.id)).toEqual([second.id, first.id]);
    expect(listed[0]).toMatchObject({ name: 'capitals', cases: 3, passedCases: 3, passed: true });
    expect(await experiments.load(first.id)).toEqual(first);
    const runId = second.cases[0]!.trials[0]!.runId;
    const events = await experiments.readEvents(runId);
    expect(events?.[0]).toMatchObject({ type: 'run-start', runId });
    expect(events?.at(-1)).toMatchObject({
      type: 'run-end',
      runId,
      stopReason: 'output',
      output: { capital: 'Paris' },
    });
    expect(await experiments.load('../escape')).toBeUndefined();
  });
});

// The scripted model used above really answers France right (a guard for the fixtures).
it('fixture: capitalScript answers Paris for France', () => {
  expect(
    capitalScript({ messages: [{ role: 'user', content: '"country": "France"' }], schema: {} }),
  ).toEqual({
    calls: [],
    output: { capital: 'Paris' },
  });
});
