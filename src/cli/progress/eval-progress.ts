import type { EvalProgress } from '../../evals/run-eval';
import type { CliIo } from '../cli-io';
import { seconds } from './progress-format';
import { TerminalFrame } from './terminal-frame';

/** Width of the progress bar, in characters. */
const BAR_WIDTH = 24;

/**
 * The progress of `ideact eval` on stderr (issue 33 item 3): on a terminal one bar redrawn in place
 * (cases done/total, passed and failed, running mean score, time) with each failing trial logged
 * above it; elsewhere (a pipe, CI) one plain line per finished trial.
 */
export interface EvalProgressView {
  onProgress(progress: EvalProgress): void;
  /** Writes whole lines without breaking the bar. */
  notice(text: string): void;
  /** Leaves the final bar and stops redrawing. */
  finish(): void;
}

/** The bar when stderr is a terminal, else plain lines; `started` = when the eval started (ms). */
export function createEvalProgress(io: CliIo, started: number): EvalProgressView {
  const terminal = io.stderrTerminal?.();
  if (terminal === undefined) {
    return {
      onProgress: (progress) => io.stderr(`${plainLine(progress)}\n`),
      notice: (text) => io.stderr(text),
      finish: () => undefined,
    };
  }
  const frame = new TerminalFrame(io.stderr, () => io.stderrTerminal?.() ?? terminal);
  let last: EvalProgress | undefined;
  let finished = false;
  const bar = (): string[] => [barLine(last, started)];
  frame.draw(bar());
  return {
    onProgress(progress) {
      last = progress;
      if (finished) return;
      if (progress.trial.passed) frame.draw(bar());
      else frame.log(`${failureLine(progress)}\n`, bar());
    },
    notice: (text) => (finished ? io.stderr(text) : frame.log(text, bar())),
    finish() {
      if (finished) return;
      finished = true;
      frame.close(bar());
    },
  };
}

/** `[#########...............] 12/40 cases · ✓ 10 ✗ 2 · mean score 0.87 · 3.2s`. */
function barLine(progress: EvalProgress | undefined, started: number): string {
  const done = progress?.done ?? 0;
  const total = progress?.total ?? 0;
  const filled = total === 0 ? 0 : Math.round((done / total) * BAR_WIDTH);
  const counts =
    progress === undefined
      ? 'starting'
      : `✓ ${progress.passed} ✗ ${progress.failed} · mean score ${progress.meanScore.toFixed(2)}`;
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${total || '?'} runs · ${counts} · ${seconds(Date.now() - started)}`;
}

/** `ideact eval: [3/40] ✓ france 1.00 (0.1s)`, or `✗ peru 0.75 (0.1s): equals(capital): …`. */
function plainLine(progress: EvalProgress): string {
  const { trial } = progress;
  const mark = trial.passed ? '✓' : '✗';
  const head = `ideact eval: [${progress.done}/${progress.total}] ${mark} ${progress.caseName}${trial.trial > 1 ? ` (trial ${trial.trial})` : ''} ${trial.score.toFixed(2)} (${seconds(trial.latencyMs)})`;
  return trial.passed ? head : `${head}: ${whyFailed(progress)}`;
}

function failureLine(progress: EvalProgress): string {
  const { trial } = progress;
  return `✗ ${progress.caseName}${trial.trial > 1 ? ` (trial ${trial.trial})` : ''} ${trial.score.toFixed(2)}: ${whyFailed(progress)}`;
}

function whyFailed(progress: EvalProgress): string {
  const { trial } = progress;
  if (trial.error !== undefined)
    return `run failed: ${trial.error.code}: ${trial.error.message.split('\n')[0]}`;
  const failed = trial.scores.find((score) => !score.passed);
  return failed === undefined ? 'failed' : `${failed.scorer}: ${failed.reason.split('\n')[0]}`;
}
