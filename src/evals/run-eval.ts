import { InvalidEvalError } from '../errors/invalid-eval.error';
import type { Provider } from '../llm/provider';
import type { RunStore } from '../runs/run-store';
import { checkCases, checkCount, checkThresholdSpec } from './check-eval-spec';
import { compareExperiments } from './compare-experiments';
import { evalProvider, isProvider, runModelOf } from './eval-provider';
import {
  EXPERIMENT_RESULT_VERSION,
  type CaseResult,
  type ExperimentResult,
  type TrialResult,
} from './eval-result';
import type { EvalCase, EvalSpec } from './eval-spec';
import { caseResultOf, checkThresholds, summaryOf } from './eval-statistics';
import { resolveTarget, type CaseStart } from './eval-target';
import { newExperimentId } from './experiment-tag';
import type { ExperimentStore } from './experiment-store';
import { loadEvalFile, readCasesFile } from './load-eval';
import { runTrial } from './run-trial';
import { buildScorer, type ScorerBuildContext } from './scorers/build-scorer';
import { isPlainObject } from './scorers/partial-match';
import type { Scorer } from './scorers/scorer';

/** How `runEval` runs a spec; each option given here wins over the spec's own. */
export interface RunEvalOptions {
  /** Where the spec's relative paths resolve (default: the working directory). */
  baseDir?: string;
  /** The eval file, named in errors and in the results. */
  file?: string;
  /** The experiment's name (default: the spec's `name`, else the file's base name, else `eval`). */
  name?: string;
  /** Where each case's run is stored, its header tagged with the experiment (default: none). */
  store?: RunStore;
  /** Where the results and each case run's events are saved for the playground (default: not saved). */
  experiments?: ExperimentStore;
  /** The target's provider (replaces the spec's `provider`). */
  provider?: Provider;
  /** The target's model name (replaces the spec's `model`). */
  model?: string;
  trials?: number;
  concurrency?: number;
  maxTurns?: number;
  /** An earlier experiment to compare with: a case whose score fell more than `tolerance` regressed. */
  baseline?: ExperimentResult;
  /** Default: the spec's `thresholds.tolerance`, else 0. */
  tolerance?: number;
  /** Where the provider is chosen from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Stops the eval: running case runs are aborted. */
  signal?: AbortSignal;
  /** Told after every trial (progress bars). */
  onProgress?: (progress: EvalProgress) => void;
  /** Told things a person should know (e.g. the offline provider was chosen). */
  onNotice?: (text: string) => void;
}

/** The progress of a running eval, after one more trial finished. */
export interface EvalProgress {
  done: number;
  total: number;
  passed: number;
  failed: number;
  /** Mean score of the trials done so far. */
  meanScore: number;
  caseName: string;
  trial: TrialResult;
}

/** The default turn limit of a case's run. */
export const DEFAULT_EVAL_MAX_TURNS = 10;
/** The default number of case runs at once. */
export const DEFAULT_EVAL_CONCURRENCY = 4;

/**
 * Runs an eval (issue 33 item 1): every case (× `trials`) as a run of the target, `concurrency` at a
 * time, in the store when one is given (tagged with the experiment), each scored by the eval's and
 * the case's scorers; then the per-case and summary numbers, the thresholds and, with a baseline,
 * the comparison. Resolves to the experiment (saved to `experiments` when given); `passed` says
 * whether every threshold held and nothing regressed. A spec of the wrong shape is an
 * {@link InvalidEvalError} before anything runs.
 */
export async function runEval(
  spec: EvalSpec,
  options: RunEvalOptions = {},
): Promise<ExperimentResult> {
  const source = options.file ?? 'runEval(spec)';
  const baseDir = options.baseDir ?? process.cwd();
  const env = options.env ?? process.env;
  if (!isPlainObject(spec)) {
    throw new InvalidEvalError({
      source,
      jsonPath: '',
      reason: 'the spec must be an object { target, cases, scorers }',
    });
  }
  const cases = checkCases(
    typeof spec.cases === 'string' ? await readCasesFile(spec.cases, baseDir, source) : spec.cases,
    typeof spec.cases === 'string' ? `${source} (cases ${spec.cases})` : source,
  );
  const thresholds = checkThresholdSpec(spec.thresholds, source);
  const trials = options.trials ?? checkCount(spec.trials, '/trials', source) ?? 1;
  const concurrency =
    options.concurrency ??
    checkCount(spec.concurrency, '/concurrency', source) ??
    DEFAULT_EVAL_CONCURRENCY;
  const maxTurns =
    options.maxTurns ?? checkCount(spec.maxTurns, '/maxTurns', source) ?? DEFAULT_EVAL_MAX_TURNS;
  if (spec.scorers !== undefined && !Array.isArray(spec.scorers)) {
    throw new InvalidEvalError({
      source,
      jsonPath: '/scorers',
      reason: 'scorers must be an array',
    });
  }
  const modelName = options.model ?? (typeof spec.model === 'string' ? spec.model : undefined);
  const model = runModelOf(modelName);
  const notice = options.onNotice;
  let chosen: Provider | undefined = options.provider;
  const provider = (): Provider => {
    chosen ??= evalProvider({
      value: spec.provider,
      source,
      jsonPath: '/provider',
      ...(modelName === undefined ? {} : { model: modelName }),
      env,
      ...(notice === undefined ? {} : { notice }),
    });
    return chosen;
  };
  const target = await resolveTarget(spec.target, {
    source,
    baseDir,
    provider,
    ...(model === undefined ? {} : { model }),
  });
  try {
    const providerOf = (value: unknown, jsonPath: string): Provider =>
      evalProvider({ value, source, jsonPath, env, ...(notice === undefined ? {} : { notice }) });
    const judge = isPlainObject(spec.judge) ? spec.judge : {};
    const judgeProvider =
      judge.provider !== undefined
        ? providerOf(judge.provider, '/judge/provider')
        : (target.provider ?? (isProvider(spec.provider) ? spec.provider : options.provider));
    const buildContext: ScorerBuildContext = {
      source,
      ...(judgeProvider === undefined ? {} : { judgeProvider }),
      ...(typeof judge.model === 'string' ? { judgeModel: judge.model } : {}),
      providerOf,
    };
    const shared = (spec.scorers ?? []).map((scorer, index) =>
      buildScorer(scorer, `/scorers/${index}`, buildContext),
    );
    // Cases without scorers of their own share the eval's list (its names checked once).
    let sharedChecked = false;
    const plans = cases.map((evalCase, index) => {
      const jsonPath = `/cases/${index}`;
      const own = (evalCase.scorers ?? []).map((scorer, position) =>
        buildScorer(scorer, `${jsonPath}/scorers/${position}`, buildContext),
      );
      const scorers = own.length === 0 ? shared : [...shared, ...own];
      if (own.length > 0 || !sharedChecked) {
        checkScorerNames(scorers, jsonPath, source, evalCase);
        sharedChecked ||= own.length === 0;
      }
      const start: CaseStart = target.startOf(evalCase, jsonPath);
      return { evalCase, scorers, start };
    });
    const recordEvents =
      options.experiments !== undefined ||
      plans.some((plan) => plan.scorers.some((scorer) => scorer.needsEvents));

    const startedAt = new Date();
    const name =
      options.name ?? (typeof spec.name === 'string' && spec.name !== '' ? spec.name : 'eval');
    const experimentId = newExperimentId(name, startedAt);
    const total = plans.length * trials;
    const progress = { done: 0, passed: 0, scoreSum: 0 };
    const byCase: TrialResult[][] = plans.map(() => []);
    const runOne = async (caseIndex: number, trialIndex: number): Promise<void> => {
      const plan = plans[caseIndex] as (typeof plans)[number];
      const outcome = await runTrial({
        target,
        evalCase: plan.evalCase,
        start: plan.start,
        scorers: plan.scorers,
        trial: trialIndex + 1,
        experimentId,
        maxTurns,
        recordEvents,
        ...(options.store === undefined ? {} : { store: options.store }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      (byCase[caseIndex] as TrialResult[])[trialIndex] = outcome.result;
      if (options.experiments !== undefined && outcome.result.runId !== '') {
        await options.experiments.writeEvents(outcome.result.runId, outcome.events);
      }
      progress.done += 1;
      progress.passed += outcome.result.passed ? 1 : 0;
      progress.scoreSum += outcome.result.score;
      options.onProgress?.({
        done: progress.done,
        total,
        passed: progress.passed,
        failed: progress.done - progress.passed,
        meanScore: progress.scoreSum / progress.done,
        caseName: plan.evalCase.name,
        trial: outcome.result,
      });
    };
    // `concurrency` workers take the case runs in order (case by case, trial by trial).
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, total) }, async () => {
        while (next < total) {
          const index = next;
          next += 1;
          await runOne(Math.floor(index / trials), index % trials);
        }
      }),
    );
    const finished = new Date();
    const caseResults: CaseResult[] = plans.map((plan, index) =>
      caseResultOf(plan.evalCase, byCase[index] as TrialResult[]),
    );
    const summary = summaryOf(caseResults, finished.getTime() - startedAt.getTime());
    const thresholdResults = checkThresholds(summary, thresholds);
    const shownProvider = target.provider?.name ?? chosen?.name;
    const result: ExperimentResult = {
      version: EXPERIMENT_RESULT_VERSION,
      id: experimentId,
      name,
      ...(options.file === undefined ? {} : { file: options.file }),
      target: target.description,
      ...(shownProvider === undefined ? {} : { provider: shownProvider }),
      ...(modelName === undefined ? {} : { model: modelName }),
      trials,
      concurrency,
      startedAt: startedAt.toISOString(),
      finishedAt: finished.toISOString(),
      cases: caseResults,
      summary,
      thresholds: thresholdResults,
      passed: thresholdResults.every((threshold) => threshold.passed),
    };
    if (options.baseline !== undefined) {
      const tolerance = options.tolerance ?? thresholds?.tolerance ?? 0;
      result.baseline = compareExperiments(options.baseline, result, tolerance);
      if (result.baseline.regressions > 0) result.passed = false;
    }
    await options.experiments?.save(result);
    return result;
  } finally {
    await target.dispose();
  }
}

/**
 * Loads an eval file and runs it (`ideact eval FILE` in code): relative paths resolve from the file's
 * folder, and the experiment is named after the file unless the spec names it.
 */
export async function runEvalFile(
  file: string,
  options: RunEvalOptions = {},
): Promise<ExperimentResult> {
  const loaded = await loadEvalFile(file);
  return runEval(loaded.spec, {
    ...options,
    baseDir: loaded.baseDir,
    file: options.file ?? file,
    name: options.name ?? (typeof loaded.spec.name === 'string' ? loaded.spec.name : loaded.name),
  });
}

/** Every case needs a scorer, and a case's scorers need distinct names (results are keyed by them). */
function checkScorerNames(
  scorers: readonly Scorer[],
  jsonPath: string,
  source: string,
  evalCase: EvalCase,
): void {
  if (scorers.length === 0) {
    throw new InvalidEvalError({
      source,
      jsonPath: `${jsonPath}/scorers`,
      reason: `case "${evalCase.name}" has no scorer`,
      fix: 'Give the eval "scorers" for every case, or the case its own.',
    });
  }
  const seen = new Set<string>();
  for (const scorer of scorers) {
    if (seen.has(scorer.name)) {
      throw new InvalidEvalError({
        source,
        jsonPath: `${jsonPath}/scorers`,
        reason: `case "${evalCase.name}" has two scorers named "${scorer.name}"`,
        fix: 'Give one of them a "name" of its own.',
      });
    }
    seen.add(scorer.name);
  }
}
