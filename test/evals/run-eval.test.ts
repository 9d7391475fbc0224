import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  createAgent,
  FileRunStore,
  InvalidEvalError,
  runEval,
  type EvalSpec,
  type ProviderRequest,
  type RunEvent,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  makeRunModuleRoot,
  nestedScript,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
} from '../agent/run-fixtures';
import { ANSWERS, capitalCases, capitalFolder, capitalScript, countryOf } from './eval-fixtures';

/**
 * Issue 33 items 1–2: `runEval` runs every case as a run of the target (tagged with the experiment
 * in the store) and scores it; a scripted model that answers some cases right and some wrong gives
 * exactly the scores, reasons and summary below.
 */

let dir: string;
beforeEach(async () => {
  dir = await capitalFolder();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const capitalScorers: EvalSpec['scorers'] = [
  { type: 'equals', path: 'capital' },
  { type: 'matches', path: 'capital', pattern: '^[A-Z][a-z]+$' },
  { type: 'schema' },
  { type: 'maxTurns', max: 1 },
];

describe('runEval: scripted answers right for some cases, wrong for others (issue 33 items 1-2)', () => {
  it('gives the exact per-case scores and reasons, the summary, and fails the default threshold', async () => {
    const store = new FileRunStore({ dir: path.join(dir, 'runs') });
    const result = await runEval(
      {
        name: 'capitals',
        target: { idea: 'capital.json' },
        cases: capitalCases,
        scorers: capitalScorers,
      },
      { baseDir: dir, provider: new ScriptedProvider(capitalScript), store },
    );

    const scores = Object.fromEntries(
      result.cases.map((item) => [
        item.name,
        item.trials[0]!.scores.map((score) => [
          score.scorer,
          score.score,
          score.passed,
          score.reason,
        ]),
      ]),
    );
    expect(scores).toEqual({
      france: [
        ['equals(capital)', 1, true, 'capital is "Paris", as expected'],
        ['matches(capital)', 1, true, 'capital "Paris" matches /^[A-Z][a-z]+$/'],
        ['schema', 1, true, 'the output validates against the schema'],
        ['maxTurns', 1, true, '1 turn(s), within the limit of 1'],
      ],
      japan: [
        ['equals(capital)', 1, true, 'capital is "Tokyo", as expected'],
        ['matches(capital)', 1, true, 'capital "Tokyo" matches /^[A-Z][a-z]+$/'],
        ['schema', 1, true, 'the output validates against the schema'],
        ['maxTurns', 1, true, '1 turn(s), within the limit of 1'],
      ],
      peru: [
        ['equals(capital)', 0, false, 'capital is "Cusco", expected "Lima"'],
        ['matches(capital)', 1, true, 'capital "Cusco" matches /^[A-Z][a-z]+$/'],
        ['schema', 1, true, 'the output validates against the schema'],
        ['maxTurns', 1, true, '1 turn(s), within the limit of 1'],
      ],
    });
    expect(result.cases.map((item) => [item.name, item.score, item.passed])).toEqual([
      ['france', 1, true],
      ['japan', 1, true],
      ['peru', 0.75, false],
    ]);
    expect(result.cases[2]!.trials[0]!.output).toEqual({ capital: 'Cusco' });
    expect(result.summary).toMatchObject({
      cases: 3,
      passedCases: 2,
      trials: 3,
      passedTrials: 2,
      passRate: 2 / 3,
      meanScore: (1 + 1 + 0.75) / 3,
      errors: 0,
    });
    expect(result.summary.scorers['equals(capital)']).toEqual({ mean: 2 / 3, passRate: 2 / 3 });
    expect(result.summary.scorers['schema']).toEqual({ mean: 1, passRate: 1 });
    // No thresholds: every case must pass.
    expect(result.thresholds).toEqual([
      { name: 'passRate', required: 1, actual: 2 / 3, passed: false },
    ]);
    expect(result.passed).toBe(false);
    expect(result.provider).toBe('scripted');
    expect(result.target).toBe(`idea ${path.join(dir, 'capital.json')}`);
    expect(result.id).toMatch(/^capitals-\d{8}T\d{6}-[0-9a-f]{4}$/);

    // Each case ran as a run in the store, its header tagged with the experiment, case and trial.
    for (const item of result.cases) {
      const stored = await store.load(item.trials[0]!.runId);
      expect(stored?.header.experiment).toEqual({ id: result.id, case: item.name, trial: 1 });
      expect(stored?.status).toBe('completed');
    }
  });

  it('meets thresholds it is given: passRate and per-scorer means (and fails one it misses)', async () => {
    const run = (thresholds: EvalSpec['thresholds']) =>
      runEval(
        {
          target: { idea: 'capital.json' },
          cases: capitalCases,
          scorers: capitalScorers,
          thresholds,
        },
        { baseDir: dir, provider: new ScriptedProvider(capitalScript) },
      );
    const met = await run({ passRate: 0.6, scorers: { schema: 1 } });
    expect(met.thresholds.map((item) => [item.name, item.passed])).toEqual([
      ['passRate', true],
      ['scorer:schema', true],
    ]);
    expect(met.passed).toBe(true);
    const missed = await run({ meanScore: 0.95, scorers: { 'equals(capital)': 0.7 } });
    expect(missed.thresholds).toEqual([
      { name: 'meanScore', required: 0.95, actual: (1 + 1 + 0.75) / 3, passed: false },
      { name: 'scorer:equals(capital)', required: 0.7, actual: 2 / 3, passed: false },
    ]);
    expect(missed.passed).toBe(false);
  });

  it('runs cases concurrently, at most `concurrency` at once', async () => {
    let running = 0;
    let most = 0;
    const slow = new ScriptedProvider(async (request: ProviderRequest) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running -= 1;
      return capitalScript(request);
    });
    const cases = ['France', 'Japan', 'Peru', 'Norway', 'France', 'Japan'].map(
      (country, index) => ({
        name: `case-${index}`,
        input: { country },
        expected: { capital: ANSWERS[country] },
      }),
    );
    const result = await runEval(
      { target: { idea: 'capital.json' }, cases, scorers: [{ type: 'equals', path: 'capital' }] },
      { baseDir: dir, provider: slow, concurrency: 3 },
    );
    expect(most).toBe(3);
    expect(result.cases.map((item) => item.name)).toEqual(cases.map((item) => item.name));
    expect(result.concurrency).toBe(3);
  });

  it('--trials 3: mean, spread, pass@1 and pass@k per case and in the summary', async () => {
    // Peru is answered Lima, Cusco, Lima on its three trials (concurrency 1: trials in order).
    const peruAnswers = ['Lima', 'Cusco', 'Lima'];
    const provider = new ScriptedProvider((request: ProviderRequest) => {
      const country = countryOf(request);
      const capital = country === 'Peru' ? peruAnswers.shift() : ANSWERS[country];
      return { calls: [], output: { capital } };
    });
    const result = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[0]!, capitalCases[2]!],
        scorers: [{ type: 'equals', path: 'capital' }],
        trials: 3,
      },
      { baseDir: dir, provider, concurrency: 1 },
    );
    const [france, peru] = result.cases;
    expect(france!.trials.map((trial) => trial.score)).toEqual([1, 1, 1]);
    expect(france).toMatchObject({
      score: 1,
      spread: { min: 1, max: 1, stddev: 0 },
      passRate: 1,
      passAtK: 1,
      passed: true,
    });
    expect(peru!.trials.map((trial) => [trial.trial, trial.score, trial.passed])).toEqual([
      [1, 1, true],
      [2, 0, false],
      [3, 1, true],
    ]);
    expect(peru!.score).toBeCloseTo(2 / 3, 10);
    expect(peru!.spread.min).toBe(0);
    expect(peru!.spread.max).toBe(1);
    expect(peru!.spread.stddev).toBeCloseTo(Math.sqrt(2 / 9), 10);
    expect(peru!.passRate).toBeCloseTo(2 / 3, 10);
    expect(peru!.passAtK).toBe(1);
    expect(peru!.passed).toBe(false);
    expect(peru!.trials[1]!.scores[0]!.reason).toBe('capital is "Cusco", expected "Lima"');
    expect(result.summary).toMatchObject({
      trials: 6,
      passedTrials: 5,
      passAtK: 1,
      passedCases: 1,
    });
    expect(result.summary.passRate).toBeCloseTo(5 / 6, 10);
    expect(
      new Set(result.cases.flatMap((item) => item.trials.map((trial) => trial.runId))).size,
    ).toBe(6);
  });

  it('contains: a substring, an array element matched partially, a partial object; reasons say what was missing', async () => {
    const provider = new ScriptedProvider(() => ({
      calls: [],
      output: { capital: 'Paris', tags: [{ kind: 'city', size: 'big' }, { kind: 'river' }] },
    }));
    const agent = createAgent({ tools: [], provider });
    const result = await runEval({
      target: { agent, output: { type: 'object' } },
      cases: [{ name: 'paris', expected: { capital: 'Par', tags: { kind: 'city' } } }],
      scorers: [
        { type: 'contains', path: 'capital' },
        { type: 'contains', path: 'tags', name: 'city tag' },
        { type: 'contains', path: 'tags', value: { kind: 'lake' }, name: 'lake tag' },
        { type: 'contains', value: { capital: 'Paris' }, name: 'object' },
        { type: 'equals', path: 'tags[1].kind', value: 'river' },
        { type: 'equals', path: 'mayor', value: 'x' },
      ],
    });
    const reasons = result.cases[0]!.trials[0]!.scores.map((score) => [
      score.scorer,
      score.passed,
      score.reason,
    ]);
    expect(reasons).toEqual([
      ['contains(capital)', true, 'capital ("Paris") contains "Par"'],
      ['city tag', true, 'tags[0] matches {"kind":"city"}'],
      ['lake tag', false, 'no element of tags (2 element(s)) matches {"kind":"lake"}'],
      [
        'object',
        true,
        // Long values are cut in reasons (60 characters here).
        'output ({"capital":"Paris","tags":[{"kind":"city","size":"big"},{"k…) contains {"capital":"Paris"}',
      ],
      ['equals(tags[1].kind)', true, 'tags[1].kind is "river", as expected'],
      ['equals(mayor)', false, 'mayor is missing from the output'],
    ]);
    await agent.dispose();
  });

  it('a run that ends without an output fails every output scorer with the stop reason', async () => {
    // The model keeps calling a tool: the turn limit stops the run first.
    const provider = new ScriptedProvider(() => ({
      calls: [{ _tool: 'weather', city: 'Oslo' }],
      output: null,
    }));
    const agent = createAgent({
      tools: [
        {
          type: 'object',
          properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
          required: ['_tool', 'city'],
        },
      ],
      activities: [sunny],
      provider,
    });
    const result = await runEval({
      target: { agent },
      cases: [{ name: 'loops', expected: 'done' }],
      scorers: [{ type: 'equals' }, { type: 'maxTurns', max: 1 }],
      maxTurns: 2,
    });
    const trial = result.cases[0]!.trials[0]!;
    expect(trial.stopReason).toBe('max_turns');
    expect(trial.output).toBeNull();
    expect(trial.scores.map((score) => [score.scorer, score.score, score.reason])).toEqual([
      ['equals(output)', 0, 'the run ended without an output (stopped: max_turns)'],
      ['maxTurns', 0, '2 turn(s), over the limit of 1'],
    ]);
    await agent.dispose();
  });
});

describe('toolCalled sees Calls inside nested modules (issue 33 item 2)', () => {
  let moduleRoot: string;
  beforeAll(async () => {
    moduleRoot = await makeRunModuleRoot();
  });
  afterAll(async () => {
    await removeRunModuleRoot(moduleRoot);
  });

  it("scores the nested planner agent's weather Call from the run's events (with its path), and names what ran instead", async () => {
    const agent = createAgent({
      tools: [summarizeTool, plannerTool],
      activities: [sunny],
      moduleRoot,
      provider: new ScriptedProvider(nestedScript),
    });
    const result = await runEval({
      target: { agent },
      cases: [{ name: 'plan', task: 'plan my day' }],
      scorers: [
        { type: 'toolCalled', tool: 'planner' },
        { type: 'toolCalled', tool: 'weather', params: { city: 'Oslo' } },
        { type: 'toolCalled', tool: 'weather', params: { city: 'Lima' }, name: 'weather in Lima' },
        { type: 'toolCalled', tool: 'summarize', max: 0, name: 'no summary' },
      ],
    });
    const [planner, oslo, lima, noSummary] = result.cases[0]!.trials[0]!.scores;
    expect(planner).toEqual({
      scorer: 'toolCalled(planner)',
      score: 1,
      passed: true,
      reason: 'planner called 1× (at least 1) by the agent',
    });
    expect(oslo).toEqual({
      scorer: 'toolCalled(weather)',
      score: 1,
      passed: true,
      reason: 'weather with {"city":"Oslo"} called 1× (at least 1) in planner.json',
    });
    expect(lima).toMatchObject({ scorer: 'weather in Lima', score: 0, passed: false });
    expect(lima!.reason).toMatch(
      /^weather with \{"city":"Lima"\} was not called \(at least 1\); Calls seen: /,
    );
    expect(lima!.reason).toContain('weather ×1');
    expect(lima!.reason).toContain('; weather ran with {"city":"Oslo"}');
    expect(noSummary).toEqual({
      scorer: 'no summary',
      score: 0,
      passed: false,
      reason: 'summarize called 1× (exactly 0) by the agent',
    });
    await agent.dispose();
  });
});

describe('custom scorers (issue 33 item 2)', () => {
  it('get { case, output, events, usage } and return a score with a reason; a bare number, a bad value and a throw are reported', async () => {
    const seen: Array<{ output: unknown; events: number; turns: number; caseName: string }> = [];
    const result = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[0]!],
        scorers: [
          {
            name: 'short name',
            score: ({ case: evalCase, output, events, usage }) => {
              seen.push({
                output,
                events: (events as RunEvent[]).filter((event) => event.type === 'run-end').length,
                turns: usage.turns,
                caseName: evalCase.name,
              });
              const capital = (output as { capital: string }).capital;
              return {
                score: capital.length <= 5 ? 1 : 0,
                reason: `${capital} has ${capital.length} letters`,
              };
            },
          },
          { name: 'bare', score: () => 0.5, threshold: 0.5 },
          { name: 'too big', score: () => 2 },
          {
            name: 'throws',
            score: () => {
              throw new Error('no network in tests');
            },
          },
        ],
      },
      { baseDir: dir, provider: new ScriptedProvider(capitalScript) },
    );
    expect(seen).toEqual([
      { output: { capital: 'Paris' }, events: 1, turns: 1, caseName: 'france' },
    ]);
    expect(result.cases[0]!.trials[0]!.scores).toEqual([
      { scorer: 'short name', score: 1, passed: true, reason: 'Paris has 5 letters' },
      { scorer: 'bare', score: 0.5, passed: true, reason: 'bare gave 0.5 (it returned no reason)' },
      {
        scorer: 'too big',
        score: 0,
        passed: false,
        reason: 'the scorer returned 2, not a score from 0 to 1 (or a boolean)',
      },
      {
        scorer: 'throws',
        score: 0,
        passed: false,
        reason: 'the scorer threw: no network in tests',
      },
    ]);
  });
});

describe('a spec of the wrong shape fails before anything runs (InvalidEvalError)', () => {
  it.each([
    [
      { cases: capitalCases, scorers: capitalScorers, target: { idea: 'missing.json' } },
      '/target/idea',
    ],
    [{ target: { idea: 'capital.json' }, cases: [], scorers: capitalScorers }, '/cases'],
    [
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[0], capitalCases[0]],
        scorers: capitalScorers,
      },
      '/cases/1/name',
    ],
    [
      { target: { idea: 'capital.json' }, cases: capitalCases, scorers: [{ type: 'equal' }] },
      '/scorers/0/type',
    ],
    [
      {
        target: { idea: 'capital.json' },
        cases: capitalCases,
        scorers: [{ type: 'matches', pattern: '(' }],
      },
      '/scorers/0/pattern',
    ],
    [{ target: { idea: 'capital.json' }, cases: capitalCases }, '/cases/0/scorers'],
    [
      {
        target: { idea: 'capital.json' },
        cases: [{ name: 'x', input: { country: 7 } }],
        scorers: capitalScorers,
      },
      '/cases/0/input',
    ],
    [
      {
        target: { idea: 'capital.json' },
        cases: capitalCases,
        scorers: capitalScorers,
        thresholds: { passRate: 2 },
      },
      '/thresholds/passRate',
    ],
  ])('%# names the JSON path %s', async (spec, jsonPath) => {
    const provider = new ScriptedProvider(capitalScript);
    const running = runEval(spec as unknown as EvalSpec, { baseDir: dir, provider });
    await expect(running).rejects.toBeInstanceOf(InvalidEvalError);
    await expect(running).rejects.toMatchObject({ code: 'INVALID_EVAL', jsonPath });
    expect(provider.used).toBe(0);
  });
});
