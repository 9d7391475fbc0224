import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PostgresRunStore, runEval, type EvalProgress } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { createEvalProgress } from '../../src/cli/progress/eval-progress';
import { databaseForThisFile } from '../support/test-database';
import { capitalCases, capitalFolder, capitalScript } from './eval-fixtures';

/**
 * Issue 33 items 1–3, the other targets and stores and the progress view: a config module's agent
 * as the target, the case runs in a PostgresRunStore (tagged), the cost and latency scorers, and the
 * eval progress on a terminal (a bar redrawn in place) and elsewhere (plain lines).
 */

const database = databaseForThisFile();
let dir: string;
beforeEach(async () => {
  dir = await capitalFolder();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('targets and stores (issue 33 item 1)', () => {
  it("a config module's agent is the target: a case's input becomes its input message", async () => {
    await fs.writeFile(path.join(dir, 'ideact.config.cjs'), 'module.exports = { tools: [] };\n');
    const provider = new ScriptedProvider(capitalScript);
    const result = await runEval(
      {
        target: {
          config: 'ideact.config.cjs',
          context: [{ type: 'system', text: 'You name capitals.' }],
          output: { type: 'object', properties: { capital: { type: 'string' } } },
        },
        cases: [capitalCases[0]!],
        scorers: [{ type: 'equals', path: 'capital' }],
      },
      { baseDir: dir, provider },
    );
    expect(result.target).toBe(`config ${path.join(dir, 'ideact.config.cjs')}`);
    expect(result.cases[0]!.trials[0]!.scores[0]!.reason).toBe('capital is "Paris", as expected');
    const prompt = provider.requests[0]!.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('You name capitals.');
    expect(prompt).toContain('"country": "France"');
  });

  it('a config module that exports no configuration is an InvalidEvalError at /target/config', async () => {
    await fs.writeFile(path.join(dir, 'empty.cjs'), 'module.exports = { nothing: true };\n');
    await expect(
      runEval(
        {
          target: { config: 'empty.cjs' },
          cases: [capitalCases[0]!],
          scorers: [{ type: 'schema' }],
        },
        { baseDir: dir, provider: new ScriptedProvider(capitalScript) },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_EVAL', jsonPath: '/target/config' });
  });

  it('the case runs go to a PostgresRunStore, each header tagged with the experiment, case and trial', async () => {
    const store = new PostgresRunStore({ connectionString: database.url, schema: database.schema });
    try {
      const result = await runEval(
        {
          target: { idea: 'capital.json' },
          cases: capitalCases.slice(0, 2),
          scorers: [{ type: 'equals', path: 'capital' }],
          trials: 2,
        },
        { baseDir: dir, provider: new ScriptedProvider(capitalScript), store },
      );
      const tags = await Promise.all(
        result.cases.flatMap((item) =>
          item.trials.map(async (trial) => (await store.load(trial.runId))?.header.experiment),
        ),
      );
      expect(tags).toEqual([
        { id: result.id, case: 'france', trial: 1 },
        { id: result.id, case: 'france', trial: 2 },
        { id: result.id, case: 'japan', trial: 1 },
        { id: result.id, case: 'japan', trial: 2 },
      ]);
      const listed = await store.list();
      expect(listed.filter((row) => row.experiment?.id === result.id)).toHaveLength(4);
    } finally {
      await store.close();
    }
  });
});

describe('cost and latency scorers (issue 33 item 2)', () => {
  it('maxCost counts the run’s tokens and prices them; maxLatency reads the run’s wall time', async () => {
    const slow = new ScriptedProvider(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return capitalScript(request);
    });
    const result = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[0]!],
        scorers: [
          { type: 'maxCost', maxTokens: 1_000, name: 'cheap' },
          { type: 'maxCost', maxTokens: 10, name: 'tiny budget' },
          {
            type: 'maxCost',
            maxUsd: 0.01,
            pricing: { inputPerMillion: 1_000, outputPerMillion: 2_000 },
            name: 'dollars',
          },
          { type: 'maxLatency', maxMs: 30_000, name: 'fast enough' },
          { type: 'maxLatency', maxMs: 20, name: 'too slow' },
        ],
      },
      { baseDir: dir, provider: slow },
    );
    const trial = result.cases[0]!.trials[0]!;
    const { inputTokens, outputTokens } = trial.usage;
    // The scripted provider counts a token per 4 characters: the numbers are the run's own.
    expect(inputTokens).toBe(
      slow.requests.reduce(
        (sum, request) =>
          sum +
          Math.ceil(
            request.messages.reduce((count, message) => count + message.content.length, 0) / 4,
          ),
        0,
      ),
    );
    const tokens = inputTokens + outputTokens;
    const usd = (inputTokens * 1_000 + outputTokens * 2_000) / 1_000_000;
    const byName = Object.fromEntries(
      trial.scores.map((score) => [score.scorer, [score.passed, score.reason]]),
    );
    expect(byName['cheap']).toEqual([
      true,
      `${tokens} tokens (${inputTokens} in, ${outputTokens} out; limit 1000): within budget`,
    ]);
    expect(byName['tiny budget']).toEqual([
      false,
      `${tokens} tokens (${inputTokens} in, ${outputTokens} out; limit 10): over budget`,
    ]);
    // About 70 tokens at $1,000 / $2,000 per million: about 8 cents, over the 1-cent budget.
    expect(usd).toBeGreaterThan(0.01);
    expect(byName['dollars']).toEqual([false, `$${usd.toFixed(6)} (limit $0.01): over budget`]);
    expect(trial.latencyMs).toBeGreaterThanOrEqual(40);
    expect(byName['fast enough']![0]).toBe(true);
    expect(byName['too slow']).toEqual([
      false,
      `took ${Math.round(trial.latencyMs)} ms, over the limit of 20 ms`,
    ]);
  });
});

describe('the eval progress view (issue 33 item 3)', () => {
  const progress = (done: number, passed: boolean, caseName: string): EvalProgress => ({
    done,
    total: 4,
    passed: passed ? done : done - 1,
    failed: passed ? 0 : 1,
    meanScore: passed ? 1 : 0.75,
    caseName,
    trial: {
      trial: 1,
      runId: `run_${done}`,
      stopReason: 'output',
      output: null,
      scores: [
        {
          scorer: 'equals(capital)',
          score: passed ? 1 : 0,
          passed,
          reason: passed ? 'ok' : 'capital is "Cusco", expected "Lima"',
        },
      ],
      score: passed ? 1 : 0,
      passed,
      usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, turns: 1, steps: 4 },
      latencyMs: 1200,
    },
  });

  it('not a terminal: one plain line per finished case run, with the reason of a failure', () => {
    const written: string[] = [];
    const view = createEvalProgress(
      { stdout: () => undefined, stderr: (text) => written.push(text), env: {} },
      Date.now(),
    );
    view.onProgress(progress(1, true, 'france'));
    view.onProgress(progress(2, false, 'peru'));
    view.finish();
    expect(written).toEqual([
      'ideact eval: [1/4] ✓ france 1.00 (1.2s)\n',
      'ideact eval: [2/4] ✗ peru 0.00 (1.2s): equals(capital): capital is "Cusco", expected "Lima"\n',
    ]);
  });

  it('a terminal: a progress bar redrawn in place (done/total, passed, failed, running score), failures logged above it', () => {
    const written: string[] = [];
    const view = createEvalProgress(
      {
        stdout: () => undefined,
        stderr: (text) => written.push(text),
        env: {},
        stderrTerminal: () => ({ columns: 120, rows: 20 }),
      },
      Date.now(),
    );
    view.onProgress(progress(1, true, 'france'));
    view.onProgress(progress(2, false, 'peru'));
    view.finish();
    const text = written.join('');
    // Each redraw moves the cursor up over the bar and clears below it.
    expect(text).toContain('\u001b[1F\u001b[J');
    expect(text).toContain('[######..................] 1/4 runs · ✓ 1 ✗ 0 · mean score 1.00');
    expect(text).toContain(
      '✗ peru 0.00: equals(capital): capital is "Cusco", expected "Lima"\n[############............] 2/4 runs · ✓ 1 ✗ 1 · mean score 0.75',
    );
    // The final bar stays (no clear after it).
    expect(text.endsWith('\n')).toBe(true);
    expect(text.slice(text.lastIndexOf('\u001b[J'))).toContain('2/4 runs');
  });
});
