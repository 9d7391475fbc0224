import type { RunEvent } from '../../runs/run-event';
import type { CliIo } from '../cli-io';
import { ProgressLines } from './progress-lines';
import { ProgressTree } from './progress-tree';
import { TerminalFrame } from './terminal-frame';

/** How often the live tree is redrawn (spinner, elapsed times, streamed characters). */
const REDRAW_MS = 100;

/**
 * The progress of `ideact run` on stderr, fed with the run's events: on a terminal a tree of runs,
 * requests and Calls redrawn in place; elsewhere one plain line per meaningful event.
 */
export interface RunProgress {
  /** True when the view shows streamed text (subscribe with `solution-delta` events on). */
  readonly wantsDeltas: boolean;
  /** Takes one event of the run. */
  onEvent(event: RunEvent): void;
  /** Writes a notice (whole lines) to stderr without breaking the live view. */
  notice(text: string): void;
  /** Stops redrawing and leaves the final tree on the terminal; further stderr output goes below. */
  finish(): void;
}

/** The live tree when `io` says stderr is a terminal, else plain lines; `started` = command start (ms). */
export function createRunProgress(io: CliIo, started: number): RunProgress {
  const terminal = io.stderrTerminal?.();
  if (terminal === undefined) {
    const lines = new ProgressLines(started);
    return {
      wantsDeltas: false,
      onEvent: (event) => {
        const line = lines.line(event);
        if (line !== undefined) io.stderr(line);
      },
      notice: (text) => io.stderr(text),
      finish: () => undefined,
    };
  }
  return liveProgress(io);
}

function liveProgress(io: CliIo): RunProgress {
  const tree = new ProgressTree();
  const frame = new TerminalFrame(
    io.stderr,
    () => io.stderrTerminal?.() ?? { columns: 80, rows: 24 },
  );
  const lines = (): string[] => tree.lines(Date.now(), { collapseEnded: true });
  let dirty = false;
  let finished = false;
  const timer = setInterval(() => {
    dirty = false;
    frame.draw(lines());
  }, REDRAW_MS);
  timer.unref();
  return {
    wantsDeltas: true,
    onEvent: (event) => {
      tree.apply(event);
      // Structure changes show at once; streamed text waits for the next tick.
      if (event.type !== 'solution-delta' && !dirty) {
        dirty = true;
        setImmediate(() => {
          if (!dirty || finished) return;
          dirty = false;
          frame.draw(lines());
        }).unref();
      }
    },
    notice: (text) => (finished ? io.stderr(text) : frame.log(text, lines())),
    finish: () => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      frame.close(tree.lines(Date.now(), { collapseEnded: true }));
    },
  };
}
