import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeTextAtomic } from '../internal/atomic-file';
import type { RunEvent } from '../runs/run-event';
import type { ExperimentResult, ExperimentSummary } from './eval-result';

/** The folder experiments are kept in unless told otherwise: `.ideact/evals` of the working directory. */
export const DEFAULT_EXPERIMENTS_DIR = path.join('.ideact', 'evals');

/** Ids the store accepts as file names (experiment ids and run ids). */
const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/**
 * Where experiments are kept (issue 33 item 3): `<dir>/<experiment id>.json` (the results, written
 * atomically) and `<dir>/runs/<run id>.events.jsonl` (the events of each case run), so the
 * playground lists experiments, shows their cases and draws each case's run tree.
 */
export class ExperimentStore {
  /** The folder, absolute. */
  readonly dir: string;

  constructor(dir: string = DEFAULT_EXPERIMENTS_DIR) {
    this.dir = path.resolve(dir);
  }

  /** Saves an experiment's results; resolves to the file written. */
  async save(result: ExperimentResult): Promise<string> {
    const file = this.fileOf(result.id);
    await fs.mkdir(this.dir, { recursive: true });
    await writeTextAtomic(file, `${JSON.stringify(result, null, 2)}\n`);
    return file;
  }

  /** The experiment's results; undefined when there is none with that id. */
  async load(id: string): Promise<ExperimentResult | undefined> {
    if (!SAFE_ID.test(id)) return undefined;
    try {
      return JSON.parse(await fs.readFile(this.fileOf(id), 'utf8')) as ExperimentResult;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Every experiment, newest first (files that are not results are left out). */
  async list(): Promise<ExperimentSummary[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const rows = await Promise.all(
      names
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .map(async (name) => {
          const result = await this.load(name.slice(0, -'.json'.length)).catch(() => undefined);
          return result === undefined || typeof result.summary !== 'object'
            ? undefined
            : summaryOf(result);
        }),
    );
    return rows
      .filter((row): row is ExperimentSummary => row !== undefined)
      .sort((left, right) =>
        left.startedAt === right.startedAt
          ? right.id.localeCompare(left.id)
          : right.startedAt.localeCompare(left.startedAt),
      );
  }

  /** Keeps the events of one case run (one JSON line each). */
  async writeEvents(runId: string, events: readonly RunEvent[]): Promise<void> {
    if (!SAFE_ID.test(runId)) return;
    const folder = path.join(this.dir, 'runs');
    await fs.mkdir(folder, { recursive: true });
    const text = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    await writeTextAtomic(path.join(folder, `${runId}.events.jsonl`), text);
  }

  /** The events kept for a case run; undefined when none were kept. */
  async readEvents(runId: string): Promise<RunEvent[] | undefined> {
    if (!SAFE_ID.test(runId)) return undefined;
    let text: string;
    try {
      text = await fs.readFile(path.join(this.dir, 'runs', `${runId}.events.jsonl`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as RunEvent);
  }

  private fileOf(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`not an experiment id: ${JSON.stringify(id)}`);
    return path.join(this.dir, `${id}.json`);
  }
}

/** The list row of an experiment. */
export function summaryOf(result: ExperimentResult): ExperimentSummary {
  return {
    id: result.id,
    name: result.name,
    target: result.target,
    ...(result.provider === undefined ? {} : { provider: result.provider }),
    startedAt: result.startedAt,
    cases: result.summary.cases,
    passedCases: result.summary.passedCases,
    passRate: result.summary.passRate,
    meanScore: result.summary.meanScore,
    passed: result.passed,
  };
}
