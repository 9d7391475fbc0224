import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { FileRunStore, type ExperimentResult } from 'ideact';
import { capitalFolder } from '../evals/eval-fixtures';
import { REPO_ROOT, runCli } from './run-cli';

/**
 * Issue 33 items 1, 3 and 4 through the BUILT command (`node dist/cli/main.js eval …`): the table,
 * the progress lines, the results and JUnit files, and the exit code — 1 when a threshold fails or a
 * case regressed against --baseline, 0 otherwise, 2 for a bad eval file — and `eval add --from-run`.
 */

let dir: string;
beforeEach(async () => {
  dir = await capitalFolder();
  // A .mjs eval file whose scripted model reads its answer for Peru from the environment.
  const testing = path.join(REPO_ROOT, 'dist', 'testing', 'index.js');
  await fs.writeFile(
    path.join(dir, 'capitals.eval.mjs'),
    `import testing from ${JSON.stringify(testing)};
const answers = { France: 'Paris', Japan: 'Tokyo', Peru: process.env.PERU_ANSWER ?? 'Cusco' };
const model = new testing.ScriptedProvider((request) => {
  const text = request.messages.map((message) => message.content).join('\\n');
  const country = /"country": "([^"]+)"/.exec(text)[1];
  return { calls: [], output: { capital: answers[country] } };
});
export default {
  name: 'capitals',
  target: { idea: 'capital.json' },
  provider: model,
  cases: 'cases.jsonl',
  scorers: [{ type: 'equals', path: 'capital' }, { type: 'schema' }],
  thresholds: { passRate: Number(process.env.PASS_RATE ?? '1') },
};
`,
  );
  await fs.writeFile(
    path.join(dir, 'cases.jsonl'),
    [
      { name: 'france', input: { country: 'France' }, expected: { capital: 'Paris' } },
      { name: 'japan', input: { country: 'Japan' }, expected: { capital: 'Tokyo' } },
      { name: 'peru', input: { country: 'Peru' }, expected: { capital: 'Lima' } },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function evalCli(args: string[], env: Record<string, string> = {}) {
  return runCli(['eval', ...args], { cwd: dir, env });
}

async function readResults(file: string): Promise<ExperimentResult> {
  return JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as ExperimentResult;
}

describe('ideact eval (built CLI, issue 33)', () => {
  it('a failed threshold exits 1: the table on stdout, a line per case on stderr, --json and --junit written, runs tagged in the store', async () => {
    const run = await evalCli([
      'capitals.eval.mjs',
      '--json',
      'results.json',
      '--junit',
      'junit.xml',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^case\s+score\s+trials\s+result\s+why\n/);
    expect(run.stdout).toMatch(
      /\nperu\s+0\.50\s+0\/1\s+FAIL\s+equals\(capital\): capital is "Cusco", expected "Lima"\n/,
    );
    expect(run.stdout).toContain('✗ threshold passRate: 0.67 < 1');
    // Not a terminal: one plain line per finished case run.
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('ideact eval: ['));
    expect(lines).toHaveLength(3);
    expect(
      lines.some((line) =>
        /\[\d\/3\] ✗ peru 0\.50 \(\d+\.\ds\): equals\(capital\): capital is "Cusco", expected "Lima"$/.test(
          line,
        ),
      ),
    ).toBe(true);
    expect(lines.filter((line) => / ✓ /.test(line))).toHaveLength(2);

    const results = await readResults('results.json');
    expect(results.cases.map((item) => [item.name, item.score, item.passed])).toEqual([
      ['france', 1, true],
      ['japan', 1, true],
      ['peru', 0.5, false],
    ]);
    expect(results.passed).toBe(false);
    expect(results.file).toBe('capitals.eval.mjs');
    // The experiment is saved for the playground, and each case run is in the store, tagged.
    const saved = await readResults(path.join('.ideact', 'evals', `${results.id}.json`));
    expect(saved).toEqual(results);
    const store = new FileRunStore({ dir: path.join(dir, '.ideact', 'runs') });
    const peruRun = results.cases[2]!.trials[0]!.runId;
    expect((await store.load(peruRun))?.header.experiment).toEqual({
      id: results.id,
      case: 'peru',
      trial: 1,
    });
    // `ideact runs list --experiment ID`: the experiment's three case runs, and only them.
    const listed = await runCli(['runs', 'list', '--experiment', results.id, '--json'], {
      cwd: dir,
    });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{
      runId: string;
      experiment?: { case: string };
    }>;
    expect(rows.map((row) => row.experiment?.case).sort()).toEqual(['france', 'japan', 'peru']);
    expect(rows.map((row) => row.runId)).toContain(peruRun);
    const none = await runCli(['runs', 'list', '--experiment', 'no-such-experiment', '--json'], {
      cwd: dir,
    });
    expect(JSON.parse(none.stdout)).toEqual([]);

    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await fs.readFile(path.join(dir, 'junit.xml'), 'utf8'),
      true,
    ) as {
      testsuites: {
        failures: string;
        testsuite: Array<{ testcase: Array<{ name: string; failure?: { message: string } }> }>;
      };
    };
    const failing = junit.testsuites.testsuite[0]!.testcase.filter(
      (item) => item.failure !== undefined,
    );
    expect(failing.map((item) => [item.name, item.failure!.message])).toEqual([
      ['peru', 'equals(capital): capital is "Cusco", expected "Lima"'],
    ]);
    expect(junit.testsuites.failures).toBe('2');
  });

  it('thresholds that hold exit 0', async () => {
    const run = await evalCli(['capitals.eval.mjs'], { PASS_RATE: '0.6' });
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('✓ threshold passRate: 0.67 ≥ 0.6');
    expect(run.stdout).toMatch(/experiment capitals-\d{8}T\d{6}-[0-9a-f]{4}: passed\n$/);
  });

  it('--baseline: a case that regressed beyond the tolerance exits 1; within it, 0', async () => {
    const good = await evalCli(['capitals.eval.mjs', '--json', 'baseline.json'], {
      PERU_ANSWER: 'Lima',
    });
    expect(good.code).toBe(0);
    const worse = await evalCli(
      ['capitals.eval.mjs', '--baseline', 'baseline.json', '--json', 'worse.json'],
      {
        PASS_RATE: '0.5',
      },
    );
    expect(worse.code).toBe(1);
    expect(worse.stdout).toContain('✓ threshold passRate: 0.67 ≥ 0.5');
    expect(worse.stdout).toMatch(
      /✗ baseline capitals-\S+: 1 regressed, 0 improved \(tolerance 0, mean score −0\.17\)/,
    );
    expect(worse.stdout).toContain('  regressed peru: 1.00 → 0.50 (−0.50)');
    expect((await readResults('worse.json')).baseline?.regressions).toBe(1);
    const tolerated = await evalCli(
      ['capitals.eval.mjs', '--baseline', 'baseline.json', '--tolerance', '0.5'],
      {
        PASS_RATE: '0.5',
      },
    );
    expect(tolerated.code).toBe(0);
    expect(tolerated.stdout).toMatch(/✓ baseline capitals-\S+: 0 regressed/);
  });

  it('--trials 3 --concurrency 2: every case runs three times; pass@k, spread and per-trial runs in the results', async () => {
    const run = await evalCli([
      'capitals.eval.mjs',
      '--trials',
      '3',
      '--concurrency',
      '2',
      '--json',
      'r.json',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^case\s+score\s+spread\s+pass@3\s+trials\s+result\s+why\n/);
    expect(run.stdout).toMatch(/\nfrance\s+1\.00\s+±0\.00\s+1\.00\s+3\/3\s+pass\n/);
    const results = await readResults('r.json');
    expect(results.trials).toBe(3);
    expect(results.concurrency).toBe(2);
    expect(results.summary.trials).toBe(9);
    expect(results.cases.map((item) => item.trials.map((trial) => trial.trial))).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(results.cases[2]).toMatchObject({ passRate: 0, passAtK: 0, spread: { stddev: 0 } });
  });

  it('an eval file of the wrong shape exits 2 naming the file and the JSON path', async () => {
    await fs.writeFile(
      path.join(dir, 'bad.eval.json'),
      JSON.stringify({
        target: { idea: 'capital.json' },
        cases: 'cases.jsonl',
        scorers: [{ type: 'equal' }],
      }),
    );
    const run = await evalCli(['bad.eval.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'bad.eval.json is not valid at /scorers/0/type: unknown scorer type "equal"',
    );
    const usage = await evalCli(['capitals.eval.mjs', '--trials', '0']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--trials: expected a positive integer, got "0"');
  });
});

describe('ideact eval add --from-run (built CLI, issue 33 item 4)', () => {
  it('turns a stored run into a case (input, output as expected), in a .jsonl and in a .json eval file', async () => {
    const first = await evalCli(['capitals.eval.mjs', '--json', 'results.json']);
    expect(first.code).toBe(1);
    const peruRun = (await readResults('results.json')).cases[2]!.trials[0]!.runId;

    const added = await evalCli([
      'add',
      'regressions.jsonl',
      '--from-run',
      peruRun,
      '--name',
      'peru-from-prod',
    ]);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain(
      `case "peru-from-prod" (from run ${peruRun}) added to regressions.jsonl`,
    );
    const lines = (await fs.readFile(path.join(dir, 'regressions.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        name: 'peru-from-prod',
        input: { country: 'Peru' },
        expected: { capital: 'Cusco' },
        metadata: {
          fromRun: peruRun,
          status: 'completed',
          stopReason: 'output',
          experiment: (await readResults('results.json')).id,
        },
      },
    ]);

    // The same run again under the same name is refused; into a .json eval file it is appended.
    const twice = await evalCli([
      'add',
      'regressions.jsonl',
      '--from-run',
      peruRun,
      '--name',
      'peru-from-prod',
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('already has a case named "peru-from-prod"');
    await fs.writeFile(
      path.join(dir, 'inline.eval.json'),
      JSON.stringify({
        target: { idea: 'capital.json' },
        cases: [{ name: 'old', input: { country: 'France' } }],
        scorers: [{ type: 'schema' }],
      }),
    );
    expect((await evalCli(['add', 'inline.eval.json', '--from-run', peruRun])).code).toBe(0);
    const inline = JSON.parse(await fs.readFile(path.join(dir, 'inline.eval.json'), 'utf8')) as {
      cases: Array<{ name: string; expected?: unknown }>;
    };
    expect(inline.cases.map((item) => [item.name, item.expected])).toEqual([
      ['old', undefined],
      [peruRun, { capital: 'Cusco' }],
    ]);

    // The new case runs: the model still answers Cusco, which is now what is expected.
    await fs.writeFile(
      path.join(dir, 'regressions.eval.mjs'),
      `import base from './capitals.eval.mjs';\nexport default { ...base, name: 'regressions', cases: 'regressions.jsonl' };\n`,
    );
    const rerun = await evalCli(['regressions.eval.mjs']);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toMatch(/\nperu-from-prod\s+1\.00\s+1\/1\s+pass\n/);
  });

  it('an unknown run id exits 2 (RUN_NOT_FOUND)', async () => {
    const run = await evalCli(['add', 'cases.jsonl', '--from-run', 'run_nothere']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('run_nothere');
  });
});
