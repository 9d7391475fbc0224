/** Where a command writes: results to `stdout`, progress and errors to `stderr`; tests pass their own. */
export interface CliIo {
  /** Writes to standard output (results: JSON, reports). */
  stdout: (text: string) => void;
  /** Writes to standard error (progress, warnings, errors). */
  stderr: (text: string) => void;
  /** Environment variables (for `DEBUG=ideact`, provider keys). */
  env: Record<string, string | undefined>;
  /**
   * The size of the terminal stderr writes to, or undefined when stderr is not a terminal (a pipe,
   * a file, CI): progress is then plain lines instead of a tree redrawn in place.
   */
  stderrTerminal?: () => TerminalSize | undefined;
}

/** Columns and rows of a terminal. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    stderrTerminal: () =>
      process.stderr.isTTY && process.env.TERM !== 'dumb'
        ? { columns: process.stderr.columns || 80, rows: process.stderr.rows || 24 }
        : undefined,
  };
}

/** True when `DEBUG` lists `ideact` (or `*`): errors then carry their stack traces. */
export function isDebug(env: Record<string, string | undefined>): boolean {
  const debug = env.DEBUG ?? '';
  return debug
    .split(/[\s,]+/)
    .some((entry) => entry === 'ideact' || entry === '*' || entry === 'ideact:*');
}
