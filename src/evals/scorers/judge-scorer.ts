import type { Provider } from '../../llm/provider';
import { formatJson } from '../../protocol/format-json';
import type { JSONSchema } from '../../protocol/json-schema';
import type { ChatMessage } from '../../protocol/message';
import { runRenderedRequest } from '../../requests/run-request';
import type { JudgeVote, ScoreResult } from '../eval-result';
import { hasOutput, noOutputReason, type Scorer, type TrialFacts } from './scorer';

/** The judge's instruction (the system message of every judge request). */
export const EVAL_JUDGE_INSTRUCTION =
  'You grade the output of an AI agent for one test case against a rubric. Read the rubric, the ' +
  "case's input, the expected output when one is given, and the agent's output. Answer with " +
  '"reason" (one or two sentences a person can check against the output), then "pass" (true when ' +
  'the output meets the rubric) and "score" (0 to 1: how well it meets the rubric).';

/** The schema of one verdict: the reason first, so the model reasons before it decides. */
export const JUDGE_VERDICT_SCHEMA: JSONSchema = {
  type: 'object',
  properties: {
    reason: { type: 'string', description: 'Why, citing the output.' },
    pass: { type: 'boolean', description: 'True when the output meets the rubric.' },
    score: { type: 'number', minimum: 0, maximum: 1, description: 'How well, 0 to 1.' },
  },
  required: ['reason', 'pass', 'score'],
  additionalProperties: false,
};

/** Options of {@link judgeScorer}. */
export interface JudgeScorerOptions {
  name: string;
  rubric: string;
  votes: number;
  provider: Provider;
  model?: string;
  includeExpected: boolean;
  threshold?: number;
}

/**
 * `judge` (issue 33 item 2): an LLM judge with a rubric, asked the way the JudgeDiscriminator asks
 * (`runRenderedRequest`: one request, validated and repaired, `n` options), for `votes` verdicts at
 * once; a provider that returns fewer options is asked again for the rest. The score is the votes'
 * mean score; it passes when most votes pass (or the mean reaches `threshold`, when set). The reason
 * counts the votes and quotes the majority's first reason; every vote is kept in `votes`.
 */
export function judgeScorer(options: JudgeScorerOptions): Scorer {
  const { name, rubric, votes, provider, model, includeExpected, threshold } = options;
  return {
    name,
    needsEvents: false,
    async score(trial): Promise<ScoreResult> {
      if (!hasOutput(trial)) {
        return {
          scorer: name,
          score: 0,
          passed: false,
          reason: `not judged: ${noOutputReason(trial)}`,
        };
      }
      const messages = judgeMessages(rubric, trial, includeExpected);
      const verdicts: JudgeVote[] = [];
      for (let asked = 0; asked < votes && verdicts.length < votes; asked += 1) {
        const result = await runRenderedRequest(
          {
            messages,
            schema: JUDGE_VERDICT_SCHEMA,
            config: { schemaName: 'judge', n: votes - verdicts.length },
          },
          { provider, model, signal: trial.signal },
        );
        trial.addJudgeUsage(result.usage);
        for (const option of result.options) {
          if (verdicts.length < votes) verdicts.push(option as JudgeVote);
        }
      }
      const passes = verdicts.filter((vote) => vote.pass).length;
      const mean = verdicts.reduce((sum, vote) => sum + vote.score, 0) / verdicts.length;
      const passed = threshold === undefined ? passes * 2 > verdicts.length : mean >= threshold;
      const majority = verdicts.find((vote) => vote.pass === passed) ?? verdicts[0];
      const rule = threshold === undefined ? 'majority' : `mean ≥ ${threshold}`;
      return {
        scorer: name,
        score: mean,
        passed,
        reason: `${passes} of ${verdicts.length} vote(s) pass (mean score ${mean.toFixed(2)}, ${rule}): ${majority?.reason ?? ''}`,
        votes: verdicts,
      };
    },
  };
}

/** The judge's messages: the instruction, then the rubric, input, expected output and output. */
function judgeMessages(rubric: string, trial: TrialFacts, includeExpected: boolean): ChatMessage[] {
  const parts = [`## Rubric\n${rubric}`];
  if (trial.input !== undefined) parts.push(`## Input\n${formatJson(trial.input)}`);
  if (trial.case.task !== undefined) parts.push(`## Task\n${trial.case.task}`);
  if (includeExpected && trial.expected !== undefined) {
    parts.push(`## Expected output\n${formatJson(trial.expected)}`);
  }
  parts.push(`## Output\n${formatJson(trial.output)}`);
  return [
    { role: 'system', content: EVAL_JUDGE_INSTRUCTION },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
