import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CliUsageError } from '../../errors/cli-usage.error';
import type { ExperimentResult } from '../../evals/eval-result';
import type { Provider } from '../../llm/provider';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { createEvalProgress } from '../progress/eval-progress';
import { openRunStore, positiveInteger } from './run-store-options';

/** Options of `ideact eval [run] FILE` as commander parsed them (strings; checked here). */
export interface EvalCommandOptions {
  json?: string;
  junit?: string;
  baseline?: string;
  tolerance?: string;
  trials?: string;
  concurrency?: string;
  provider?: string;
  model?: string;
  maxTurns?: string;
  name?: string;
  dir?: string;
  databaseUrl?: string;
  schema?: string;
  experiments?: string;
}

/**
 * `ideact eval FILE` (issue 33): runs the eval with progress on stderr, prints the case table on
 * stdout, saves the experiment (for the playground) and writes `--json` / `--junit`. Exit 1 when a
 * threshold failed or a case regressed against `--baseline`; 2 for bad input; 130 on Ctrl-C.
 */
export async function evalCommand(
  file: string,
  options: EvalCommandOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const trials = positiveInteger(options.trials, '--trials');
  const concurrency = positiveInteger(options.concurrency, '--concurrency');
  const maxTurns = positiveInteger(options.maxTurns, '--max-turns');
  const tolerance = toleranceOf(options.tolerance);
  const baseline =
    options.baseline === undefined ? undefined : await readBaseline(options.baseline);

  const { runEval } = await import('../../evals/run-eval');
  const { loadEvalFile } = await import('../../evals/load-eval');
  const { ExperimentStore } = await import('../../evals/experiment-store');
  const { formatEvalReport } = await import('../../evals/eval-report');
  const { junitReport } = await import('../../evals/junit-report');
  const { writeTextAtomic } = await import('../../internal/atomic-file');

  const loaded = await loadEvalFile(file);
  const provider = await chosenProvider(options, io);
  const store = await openRunStore({
    ...(options.dir === undefined ? {} : { dir: options.dir }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  });
  const experiments = new ExperimentStore(options.experiments);
  const started = Date.now();
  const progress = createEvalProgress(io, started);
  const controller = new AbortController();
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(ExitCode.interrupted);
    interrupted = true;
    progress.notice(
      'ideact eval: interrupted; stopping the case runs (Ctrl-C again to quit now)\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let result: ExperimentResult;
  try {
    result = await runEval(loaded.spec, {
      baseDir: loaded.baseDir,
      file: path.relative(process.cwd(), loaded.file) || loaded.file,
      name: options.name ?? (typeof loaded.spec.name === 'string' ? loaded.spec.name : loaded.name),
      store,
      experiments,
      env: io.env,
      signal: controller.signal,
      ...(provider === undefined ? {} : { provider }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(trials === undefined ? {} : { trials }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(baseline === undefined ? {} : { baseline }),
      ...(tolerance === undefined ? {} : { tolerance }),
      onProgress: (value) => progress.onProgress(value),
      onNotice: (text) => progress.notice(`ideact eval: ${text}\n`),
    });
  } finally {
    progress.finish();
    process.removeListener('SIGINT', onSigint);
    await store.close?.();
  }
  io.stdout(formatEvalReport(result));
  if (options.json !== undefined) {
    await writeTextAtomic(path.resolve(options.json), `${JSON.stringify(result, null, 2)}\n`);
  }
  if (options.junit !== undefined) {
    await writeTextAtomic(path.resolve(options.junit), junitReport(result));
  }
  io.stderr(
    `ideact eval: experiment ${result.id} saved in ${path.relative(process.cwd(), experiments.dir) || '.'}` +
      (options.json === undefined ? '' : `; results in ${options.json}`) +
      (options.junit === undefined ? '' : `; JUnit in ${options.junit}`) +
      '; `ideact dev` shows it on the Evals page\n',
  );
  if (interrupted) return ExitCode.interrupted;
  return result.passed ? ExitCode.ok : ExitCode.failure;
}

/** `--tolerance`: a number ≥ 0. */
function toleranceOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0) {
    throw new CliUsageError({
      option: '--tolerance',
      reason: `expected a number ≥ 0, got "${value}"`,
      fix: 'Pass e.g. --tolerance 0.05 (a case may score 0.05 less than in the baseline).',
    });
  }
  return number;
}

/** `--baseline FILE`: an earlier results file (`--json`), checked enough to compare with. */
async function readBaseline(file: string): Promise<ExperimentResult> {
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    throw new CliUsageError({
      option: '--baseline',
      reason: `${file} cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`,
      fix: 'Pass a results file written by `ideact eval --json FILE`.',
      cause: error,
    });
  }
  const result = value as Partial<ExperimentResult>;
  if (
    typeof result !== 'object' ||
    result === null ||
    typeof result.id !== 'string' ||
    !Array.isArray(result.cases) ||
    typeof result.summary?.meanScore !== 'number'
  ) {
    throw new CliUsageError({
      option: '--baseline',
      reason: `${file} is not an eval results file (no id, cases and summary)`,
      fix: 'Pass a results file written by `ideact eval --json FILE`.',
    });
  }
  return result as ExperimentResult;
}

/**
 * `--provider`: chosen as every command chooses one (`selectProvider`, with `--model`); undefined:
 * the eval file decides (a `--model` alone is handed to it, e.g. `anthropic:claude-sonnet-4-5`).
 */
async function chosenProvider(
  options: EvalCommandOptions,
  io: CliIo,
): Promise<Provider | undefined> {
  if (options.provider === undefined) return undefined;
  const { selectProvider } = await import('./select-provider');
  const selected = await selectProvider(
    {
      provider: options.provider,
      ...(options.model === undefined ? {} : { model: options.model }),
    },
    io,
    { announce: true },
  );
  return selected.provider;
}
