import { promises as fs } from 'node:fs';
import { EVAL_JUDGE_INSTRUCTION, runEval, type ProviderRequest } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { capitalCases, capitalFolder, capitalScript } from './eval-fixtures';

/**
 * Issue 33 item 2, `judge`: an LLM judge with a rubric asked for n votes in one request (n options,
 * as the JudgeDiscriminator asks), with its own provider and model. A scripted judge model gives the
 * votes, so the count, the mean score, the verdict and the reason are exact.
 */

let dir: string;
beforeEach(async () => {
  dir = await capitalFolder();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const RUBRIC = 'The capital named is the real capital of the country.';

describe('judge scorer (issue 33 item 2)', () => {
  it('counts 3 votes from one request for n = 3: passes by majority, score = mean, reason quotes the majority', async () => {
    const judge = new ScriptedProvider((request: ProviderRequest) =>
      request.messages[1]!.content.includes('"Cusco"')
        ? ScriptedProvider.options([
            {
              reason: 'Cusco was the Inca capital, not the capital of Peru.',
              pass: false,
              score: 0.1,
            },
            { reason: 'Lima is the capital; Cusco is wrong.', pass: false, score: 0 },
            { reason: 'Close enough historically.', pass: true, score: 0.6 },
          ])
        : ScriptedProvider.options([
            { reason: 'Paris is the capital of France.', pass: true, score: 1 },
            { reason: 'Correct capital.', pass: true, score: 0.9 },
            { reason: 'Could add the region.', pass: false, score: 0.5 },
          ]),
    );
    const result = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[0]!, capitalCases[2]!],
        scorers: [{ type: 'judge', rubric: RUBRIC, votes: 3 }],
        judge: { provider: judge, model: 'judge-model-1' },
      },
      { baseDir: dir, provider: new ScriptedProvider(capitalScript) },
    );
    const [france, peru] = result.cases.map((item) => item.trials[0]!.scores[0]!);
    expect(france).toEqual({
      scorer: 'judge',
      score: (1 + 0.9 + 0.5) / 3,
      passed: true,
      reason: '2 of 3 vote(s) pass (mean score 0.80, majority): Paris is the capital of France.',
      votes: [
        { reason: 'Paris is the capital of France.', pass: true, score: 1 },
        { reason: 'Correct capital.', pass: true, score: 0.9 },
        { reason: 'Could add the region.', pass: false, score: 0.5 },
      ],
    });
    expect(peru).toMatchObject({
      score: (0.1 + 0 + 0.6) / 3,
      passed: false,
      reason:
        '1 of 3 vote(s) pass (mean score 0.23, majority): Cusco was the Inca capital, not the capital of Peru.',
    });
    // One judge request per case, for 3 options, with the judge's own model, rubric and output.
    expect(judge.requests).toHaveLength(2);
    for (const request of judge.requests) {
      expect(request.n).toBe(3);
      expect(request.model).toBe('judge-model-1');
      expect(request.schemaName).toBe('judge');
      expect(request.messages[0]).toEqual({ role: 'system', content: EVAL_JUDGE_INSTRUCTION });
      expect(request.messages[1]!.content).toContain(`## Rubric\n${RUBRIC}`);
    }
    const peruRequest = judge.requests.find((request) =>
      request.messages[1]!.content.includes('Cusco'),
    )!;
    expect(peruRequest.messages[1]!.content).toContain('## Input\n{\n  "country": "Peru"\n}');
    expect(peruRequest.messages[1]!.content).toContain(
      '## Expected output\n{\n  "capital": "Lima"\n}',
    );
    expect(peruRequest.messages[1]!.content).toContain('## Output\n{\n  "capital": "Cusco"\n}');
    // The judge's tokens are counted apart from the target's.
    const judged = result.cases[0]!.trials[0]!.judgeUsage!;
    expect(judged.inputTokens).toBeGreaterThan(0);
    expect(result.summary.judgeUsage.inputTokens).toBe(
      result.cases.reduce((sum, item) => sum + item.trials[0]!.judgeUsage!.inputTokens, 0),
    );
  });

  it('asks again when the provider answers fewer options than votes (one per request), and a threshold replaces the majority', async () => {
    const verdicts = [
      { reason: 'Right.', pass: true, score: 0.7 },
      { reason: 'Wrong.', pass: false, score: 0.2 },
      { reason: 'Right again.', pass: true, score: 0.9 },
    ];
    const judge = new ScriptedProvider(() => verdicts.shift());
    const result = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[0]!],
        scorers: [
          {
            type: 'judge',
            rubric: RUBRIC,
            votes: 3,
            provider: judge,
            threshold: 0.7,
            name: 'strict judge',
          },
        ],
      },
      { baseDir: dir, provider: new ScriptedProvider(capitalScript) },
    );
    expect(judge.requests.map((request) => request.n)).toEqual([3, 2, 1]);
    const score = result.cases[0]!.trials[0]!.scores[0]!;
    expect(score.votes).toHaveLength(3);
    expect(score.score).toBeCloseTo(0.6, 10);
    // 2 of 3 pass, but the mean 0.6 is below the threshold 0.7.
    expect(score.passed).toBe(false);
    expect(score.reason).toBe('2 of 3 vote(s) pass (mean score 0.60, mean ≥ 0.7): Wrong.');
  });

  it("defaults to the target's provider, and does not judge a run without an output", async () => {
    const both = new ScriptedProvider((request: ProviderRequest) =>
      request.schemaName === 'judge'
        ? { reason: 'Tokyo is right.', pass: true, score: 1 }
        : capitalScript(request),
    );
    const result = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[1]!],
        scorers: [{ type: 'judge', rubric: RUBRIC }],
      },
      { baseDir: dir, provider: both },
    );
    expect(result.cases[0]!.trials[0]!.scores[0]!.reason).toBe(
      '1 of 1 vote(s) pass (mean score 1.00, majority): Tokyo is right.',
    );
    const none = new ScriptedProvider(() => ({ calls: [], output: null }));
    const judge = new ScriptedProvider(() => ({ reason: 'x', pass: true, score: 1 }));
    const empty = await runEval(
      {
        target: { idea: 'capital.json' },
        cases: [capitalCases[1]!],
        scorers: [{ type: 'judge', rubric: RUBRIC, provider: judge }],
      },
      { baseDir: dir, provider: none },
    );
    expect(empty.cases[0]!.trials[0]!.scores[0]).toEqual({
      scorer: 'judge',
      score: 0,
      passed: false,
      reason: 'not judged: the run ended without an output (stopped: no_calls)',
    });
    expect(judge.used).toBe(0);
  });
});
