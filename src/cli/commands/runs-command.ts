import { CliUsageError } from '../../errors/cli-usage.error';
import { isRunStatus, RUN_STATUSES } from '../../runs/run-store';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { resumeSuggestion } from './resume-suggestion';
import { formatRunList, formatRunReport, runReport } from './run-report';
import {
  engineOptionsOf,
  openRunStore,
  positiveInteger,
  type RunStoreOptions,
} from './run-store-options';

/** Options of `ideact runs list`. */
export interface RunsListOptions extends RunStoreOptions {
  status?: string;
  limit?: string;
  /** Also nested runs (default: top-level runs only). */
  all?: boolean;
  /** Only the case runs of this eval experiment. */
  experiment?: string;
}

/** `ideact runs list`: the store's runs, newest first (top-level only unless `--all`). */
export async function runsListCommand(options: RunsListOptions, io: CliIo): Promise<ExitCodeValue> {
  const status = options.status;
  if (status !== undefined && !isRunStatus(status)) {
    throw new CliUsageError({
      option: '--status',
      reason: `unknown status "${status}"`,
      fix: `Pass one of: ${RUN_STATUSES.join(', ')}.`,
    });
  }
  const limit = positiveInteger(options.limit, '--limit') ?? 50;
  const store = await openRunStore(options);
  try {
    const runs = await store.list({
      limit,
      ...(status === undefined ? {} : { status }),
      ...(options.all === true ? {} : { parentRunId: null }),
      ...(options.experiment === undefined ? {} : { experiment: options.experiment }),
    });
    io.stdout(options.json === true ? `${JSON.stringify(runs, null, 2)}\n` : formatRunList(runs));
    return ExitCode.ok;
  } finally {
    await store.close?.();
  }
}

/** `ideact runs show ID`: status, stop reason, task, usage, output or error, interruptions. */
export async function runsShowCommand(
  runId: string,
  options: RunStoreOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const store = await openRunStore(options);
  try {
    const { loadStoredRun } = await import('../../engine/stored-run-control');
    const stored = await loadStoredRun(store, runId);
    const report = runReport(stored, resumeSuggestion(stored, options));
    io.stdout(
      options.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatRunReport(report),
    );
    return ExitCode.ok;
  } finally {
    await store.close?.();
  }
}

/**
 * `ideact runs cancel ID`: records the status `cancelled` in the store; with `--database-url` also
 * cancels the run's DBOS workflow, so a worker stops it (a step running now is aborted).
 */
export async function runsCancelCommand(
  runId: string,
  options: RunStoreOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const engine = engineOptionsOf(options);
  if (engine !== undefined) {
    const { RunQueue } = await import('../../engine/run-queue');
    const queue = new RunQueue(engine);
    try {
      await queue.cancel(runId);
    } finally {
      await queue.close();
    }
  } else {
    const store = await openRunStore(options);
    try {
      const { cancelStoredRun } = await import('../../engine/stored-run-control');
      await cancelStoredRun(store, runId);
    } finally {
      await store.close?.();
    }
  }
  io.stdout(
    options.json === true
      ? `${JSON.stringify({ runId, status: 'cancelled' })}\n`
      : `cancelled ${runId}\n`,
  );
  return ExitCode.ok;
}

/**
 * `ideact runs import <state.json>`: stores a state file's run (an older whole-state file, or the run
 * a newer one names) as a run of the store the options name, and prints its run id. The file is only read.
 */
export async function runsImportCommand(
  file: string,
  options: RunStoreOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const { loadState } = await import('../../store/state-file-store');
  const { importState } = await import('../../store/import-state');
  const state = await loadState(file);
  const store = await openRunStore(options);
  let runId: string;
  try {
    runId = await importState(store, state);
  } finally {
    await store.close?.();
  }
  io.stdout(
    options.json === true
      ? `${JSON.stringify({ runId, file })}\n`
      : `imported ${file} as run ${runId}\n`,
  );
  return ExitCode.ok;
}
