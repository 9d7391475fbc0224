import * as path from 'node:path';
import { CliUsageError } from '../../errors/cli-usage.error';
import type { RunStore } from '../../runs/run-store';
import type { EngineOptions } from '../../engine/engine-options';

/**
 * Which run store `ideact runs …` works on: the FileRunStore at `--dir` (default `.ideact/runs`
 * under the working directory), or with `--database-url` the PostgresRunStore (and DBOS queue) of
 * the workers.
 */
export interface RunStoreOptions {
  /** A FileRunStore's folder (default `.ideact/runs`). */
  dir?: string;
  /** A PostgreSQL database: the workers' PostgresRunStore and DBOS system tables. */
  databaseUrl?: string;
  /** The PostgresRunStore's schema (default `ideact`). */
  schema?: string;
  /** DBOS's system schema (default `dbos`). */
  systemSchema?: string;
  /** The worker queue (default `ideact-runs`). */
  queue?: string;
  /** Print JSON instead of text. */
  json?: boolean;
}

/** The engine options of `--database-url` and friends; undefined without a database. */
export function engineOptionsOf(options: RunStoreOptions): EngineOptions | undefined {
  if (options.databaseUrl === undefined) return undefined;
  if (options.dir !== undefined) {
    throw new CliUsageError({
      option: '--dir',
      reason: 'cannot be combined with --database-url',
      fix: 'Pass --dir for a FileRunStore, or --database-url for the workers’ PostgreSQL store.',
    });
  }
  return {
    databaseUrl: options.databaseUrl,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.systemSchema === undefined ? {} : { systemSchema: options.systemSchema }),
    ...(options.queue === undefined ? {} : { queueName: options.queue }),
  };
}

/** Opens the store the options name (the modules load here, on first use). */
export async function openRunStore(options: RunStoreOptions): Promise<RunStore> {
  const engine = engineOptionsOf(options);
  if (engine !== undefined) {
    const { PostgresRunStore } = await import('../../store/postgres-run-store');
    return new PostgresRunStore({
      connectionString: engine.databaseUrl,
      ...(engine.schema === undefined ? {} : { schema: engine.schema }),
    });
  }
  const { FileRunStore } = await import('../../store/file-run-store');
  return new FileRunStore({ dir: path.resolve(options.dir ?? path.join('.ideact', 'runs')) });
}

/** A positive integer option, or undefined; a CliUsageError otherwise. */
export function positiveInteger(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new CliUsageError({
      option,
      reason: `expected a positive integer, got "${value}"`,
      fix: `Pass e.g. ${option} 4.`,
    });
  }
  return number;
}
