import { performance } from 'node:perf_hooks';
import type { AgentResult, RunOptions } from '../agent/agent-options';
import type { Run } from '../agent/run';
import type { Usage } from '../llm/provider';
import { isPromiseLike } from '../internal/is-promise-like';
import { addUsage, emptyUsage } from '../llm/usage';
import type { CallError } from '../protocol/call';
import { callErrorOf } from '../requests/send-request';
import type { RunEvent } from '../runs/run-event';
import type { RunStore } from '../runs/run-store';
import type { ScoreResult, TrialResult } from './eval-result';
import type { EvalCase, TrialUsage } from './eval-spec';
import type { CaseStart, ResolvedTarget } from './eval-target';
import { withExperiment } from './experiment-tag';
import type { Scorer, TrialFacts } from './scorers/scorer';

/** The events of a trial that records none (shared, never written to). */
const NO_EVENTS: RunEvent[] = Object.freeze([]) as unknown as RunEvent[];

/** What one trial needs. */
export interface TrialSetup {
  target: ResolvedTarget;
  evalCase: EvalCase;
  start: CaseStart;
  scorers: readonly Scorer[];
  trial: number;
  experimentId: string;
  maxTurns: number;
  store?: RunStore;
  /** Record the run's events (a scorer reads them, or they are kept for the playground). */
  recordEvents: boolean;
  signal?: AbortSignal;
}

/** A trial's result and the events recorded (empty when not recorded). */
export interface TrialOutcome {
  result: TrialResult;
  events: RunEvent[];
}

/**
 * Runs one case once (issue 33 item 1) as a run of the target's agent — in the store, its header
 * tagged with the experiment, case and trial — then scores it. A run that fails is a failed trial
 * with the error, scored like any other (its scorers say there was no output); a scorer that throws
 * scores 0 with the reason.
 */
export async function runTrial(setup: TrialSetup): Promise<TrialOutcome> {
  const { target, evalCase, start, trial } = setup;
  // Recorded only when a scorer reads them or the experiments folder keeps them.
  const events: RunEvent[] = setup.recordEvents ? [] : NO_EVENTS;
  const store =
    setup.store === undefined
      ? undefined
      : withExperiment(setup.store, { id: setup.experimentId, case: evalCase.name, trial });
  const began = performance.now();
  let run: Run | undefined;
  let result: AgentResult | undefined;
  let error: CallError | undefined;
  let unsubscribe: (() => void) | undefined;
  try {
    const options: RunOptions = { context: start.context, maxTurns: setup.maxTurns };
    if (start.output !== undefined) options.output = start.output;
    if (start.task !== undefined) options.task = start.task;
    if (store !== undefined) options.store = store;
    if (setup.signal !== undefined) options.signal = setup.signal;
    run = target.agent.start(options);
    if (setup.recordEvents)
      unsubscribe = run.subscribe((event) => events.push(event), { deltas: false });
    result = await run.result();
  } catch (thrown) {
    error = callErrorOf(thrown);
  } finally {
    unsubscribe?.();
  }
  // Rounded once, to 0.1 ms: the scorers judge the figure the report shows.
  const latencyMs = Math.round((performance.now() - began) * 10) / 10;
  const state = result?.state ?? run?.state;
  const done = state?.nextStep;
  if (error === undefined && result?.error !== undefined) error = callErrorOf(result.error);
  if (error === undefined && done?.module === 'done' && done.args.error !== undefined) {
    error = done.args.error;
  }
  const usage: TrialUsage = {
    inputTokens: state?.usage.inputTokens ?? 0,
    outputTokens: state?.usage.outputTokens ?? 0,
    cachedTokens: state?.usage.cachedTokens ?? 0,
    turns: state?.usage.turns ?? 0,
    steps: state?.usage.steps ?? 0,
  };
  let judgeUsage: Usage | undefined;
  // Built once per trial, optional fields only when set (no spreads: an eval runs many short trials).
  const facts: TrialFacts = {
    case: evalCase,
    input: evalCase.input,
    expected: evalCase.expected,
    output: result?.output ?? null,
    events,
    usage,
    latencyMs,
    stopReason: result?.stopReason ?? 'error',
    runId: run?.id ?? '',
    trial,
    addJudgeUsage: (spent) => {
      judgeUsage = addUsage(judgeUsage ?? emptyUsage(), spent);
    },
  };
  if (error !== undefined) facts.error = error;
  if (target.outputSchema !== undefined) facts.outputSchema = target.outputSchema;
  if (setup.signal !== undefined) facts.signal = setup.signal;
  const scores: ScoreResult[] = [];
  let total = 0;
  let passed = error === undefined;
  for (const scorer of setup.scorers) {
    const pending = scoreSafely(scorer, facts);
    const score = isPromiseLike(pending) ? await pending : pending;
    scores.push(score);
    total += score.score;
    passed &&= score.passed;
  }
  const trialResult: TrialResult = {
    trial,
    runId: facts.runId,
    stopReason: facts.stopReason,
    output: facts.output,
    scores,
    score: scores.length === 0 ? 0 : total / scores.length,
    passed,
    usage,
    latencyMs,
  };
  if (error !== undefined) trialResult.error = error;
  if (judgeUsage !== undefined) trialResult.judgeUsage = judgeUsage;
  return { result: trialResult, events };
}

/** A scorer's result; a scorer that throws (a judge's provider failing…) scores 0 with the reason. */
function scoreSafely(scorer: Scorer, facts: TrialFacts): ScoreResult | PromiseLike<ScoreResult> {
  let score: ScoreResult | PromiseLike<ScoreResult>;
  try {
    score = scorer.score(facts);
  } catch (thrown) {
    return failedScore(scorer, thrown);
  }
  // A synchronous scorer's result is used as it is (no promise per score).
  return isPromiseLike(score)
    ? Promise.resolve(score).catch((thrown: unknown) => failedScore(scorer, thrown))
    : score;
}

/** A scorer that threw (or rejected) scores 0, with what it threw as the reason. */
function failedScore(scorer: Scorer, thrown: unknown): ScoreResult {
  const error = callErrorOf(thrown);
  return {
    scorer: scorer.name,
    score: 0,
    passed: false,
    reason: `the scorer failed: ${error.code}: ${error.message}`,
  };
}
