import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CliUsageError } from '../../errors/cli-usage.error';
import { RunNotFoundError } from '../../errors/run-not-found.error';
import type { EvalCase } from '../../evals/eval-spec';
import { dataView, isInputMessage } from '../../protocol/data-view';
import type { StoredRun } from '../../runs/run-store';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { openRunStore } from './run-store-options';

/** Options of `ideact eval add FILE`. */
export interface EvalAddOptions {
  fromRun: string;
  name?: string;
  dir?: string;
  databaseUrl?: string;
  schema?: string;
}

/**
 * `ideact eval add FILE --from-run RUN_ID` (issue 33 item 4): a stored run becomes a case — its input
 * (the run's input message), its task, and its output as `expected` — appended to a `.jsonl` cases
 * file (created when missing), or to the `cases` of a `.json` eval file (or to the cases file it
 * names), so a good or bad production run becomes a regression case.
 */
export async function evalAddCommand(
  file: string,
  options: EvalAddOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const store = await openRunStore({
    ...(options.dir === undefined ? {} : { dir: options.dir }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  });
  let stored: StoredRun | undefined;
  try {
    stored = await store.load(options.fromRun);
  } finally {
    await store.close?.();
  }
  if (stored === undefined) {
    throw new RunNotFoundError({
      runId: options.fromRun,
      location:
        options.databaseUrl === undefined
          ? `the run store ${options.dir ?? '.ideact/runs'}`
          : 'the PostgreSQL run store',
    });
  }
  const evalCase = caseOf(stored, options.name ?? options.fromRun);
  const written = await addCase(path.resolve(file), evalCase, file);
  io.stdout(`${JSON.stringify(evalCase, null, 2)}\n`);
  io.stderr(
    `ideact eval add: case "${evalCase.name}" (from run ${options.fromRun}) added to ${path.relative(process.cwd(), written) || written}` +
      (evalCase.expected === undefined
        ? `; the run ended without an output (${stored.status}), so the case has no "expected": add it, or a scorer that needs none`
        : '; its output is the case’s "expected": edit it if the run was wrong') +
      '\n',
  );
  return ExitCode.ok;
}

/** The case a stored run makes: input, task, output as expected, and where it came from. */
function caseOf(stored: StoredRun, name: string): EvalCase {
  const state = stored.state;
  const inputNode = state.nodes.find(
    (node) =>
      node.metadata.module === 'input' &&
      node.message.type !== 'vessel' &&
      isInputMessage(node.message),
  );
  const input =
    inputNode === undefined || inputNode.message.type === 'vessel'
      ? undefined
      : dataView(inputNode.message)?.data;
  const done = state.nextStep;
  const output = done.module === 'done' ? done.args.output : undefined;
  const task = state.task ?? stored.header.task;
  return {
    name,
    ...(input === undefined ? {} : { input }),
    ...(task === undefined ? {} : { task }),
    ...(output === undefined || output === null ? {} : { expected: output }),
    metadata: {
      fromRun: stored.header.runId,
      status: stored.status,
      ...(done.module === 'done' ? { stopReason: done.args.reason } : {}),
      ...(stored.header.experiment === undefined
        ? {}
        : { experiment: stored.header.experiment.id }),
    },
  };
}

/** Appends `evalCase` to `target` (a .jsonl, a .json cases array, or a .json eval file); the file written. */
async function addCase(target: string, evalCase: EvalCase, given: string): Promise<string> {
  const lower = target.toLowerCase();
  if (lower.endsWith('.jsonl')) {
    const text = await readIfExists(target);
    const names = (text ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line, index) => {
        try {
          return (JSON.parse(line) as { name?: unknown }).name;
        } catch {
          throw new CliUsageError({
            option: '<file>',
            reason: `${given}:${index + 1} is not a JSON line`,
            fix: 'Fix the cases file (one case per line as JSON) before adding to it.',
          });
        }
      });
    assertNewName(names, evalCase.name, given);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const separator = text === undefined || text === '' || text.endsWith('\n') ? '' : '\n';
    await fs.appendFile(target, `${separator}${JSON.stringify(evalCase)}\n`);
    return target;
  }
  if (!lower.endsWith('.json')) {
    throw new CliUsageError({
      option: '<file>',
      reason: `${given} is neither a .jsonl cases file nor a .json eval file`,
      fix: 'Add cases to a .jsonl file (a .ts or .mjs eval file can read its cases from it: cases: "cases.jsonl").',
    });
  }
  const text = await readIfExists(target);
  if (text === undefined) {
    throw new CliUsageError({
      option: '<file>',
      reason: `${given} does not exist`,
      fix: 'Name an existing .json eval file, or a .jsonl cases file (created when missing).',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError({
      option: '<file>',
      reason: `${given} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      fix: 'Fix the file before adding to it.',
    });
  }
  const holder = value as { cases?: unknown };
  const cases = Array.isArray(value) ? value : holder.cases;
  if (typeof cases === 'string') {
    return addCase(path.resolve(path.dirname(target), cases), evalCase, cases);
  }
  if (!Array.isArray(cases)) {
    throw new CliUsageError({
      option: '<file>',
      reason: `${given} has no "cases" array`,
      fix: 'Name an eval file with "cases": [...] (or "cases": "cases.jsonl"), or a .jsonl cases file.',
    });
  }
  assertNewName(
    cases.map((item: { name?: unknown }) => item?.name),
    evalCase.name,
    given,
  );
  cases.push(evalCase);
  const { writeTextAtomic } = await import('../../internal/atomic-file');
  await writeTextAtomic(target, `${JSON.stringify(value, null, 2)}\n`);
  return target;
}

function assertNewName(names: unknown[], name: string, file: string): void {
  if (names.includes(name)) {
    throw new CliUsageError({
      option: '--name',
      reason: `${file} already has a case named "${name}"`,
      fix: 'Pass another --name.',
    });
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
