/**
 * Exit codes of the `ideact` command (documented in docs/cli.md; scripts and CI rely on them).
 */
export const ExitCode = {
  /** Success. */
  ok: 0,
  /** The run failed or stopped without an output, validation found problems, `codegen --check` found stale files. */
  failure: 1,
  /** Usage error or bad input: unknown option, missing file, invalid JSON, missing API key. */
  usage: 2,
  /** Interrupted with Ctrl-C (SIGINT); `run` saved its state first. */
  interrupted: 130,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
