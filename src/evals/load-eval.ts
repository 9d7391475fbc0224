import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { importUserModule } from '../container/config-module';
import { IdeactError } from '../errors/ideact-error';
import { InvalidEvalError } from '../errors/invalid-eval.error';
import type { EvalCase, EvalSpec } from './eval-spec';
import { isPlainObject } from './scorers/partial-match';

/** An eval file as loaded: its spec, where its relative paths resolve, and its default name. */
export interface LoadedEval {
  spec: EvalSpec;
  /** The file, absolute. */
  file: string;
  /** Its folder: the target and a cases file resolve here. */
  baseDir: string;
  /** The file's base name without `.eval.json` / `.eval.ts` / …: the experiment's default name. */
  name: string;
}

/** The extensions of eval files that are modules (they export the spec). */
const MODULE_EXTENSIONS = ['.mjs', '.cjs', '.js', '.ts', '.mts', '.cts'];

/**
 * Loads an eval file (issue 33 item 1): `*.eval.json` (or any `.json`), or a module (`.mjs`, `.js`,
 * `.ts` through the project's tsx…) whose default export — or `eval` export, or the module itself —
 * is the spec or a function returning it. A file that is missing or does not load is an
 * {@link InvalidEvalError}.
 */
export async function loadEvalFile(file: string): Promise<LoadedEval> {
  const absolute = path.resolve(file);
  const extension = path.extname(absolute).toLowerCase();
  let value: unknown;
  if (MODULE_EXTENSIONS.includes(extension)) {
    let exported: unknown;
    try {
      exported = await importUserModule(absolute);
    } catch (error) {
      // A TypeScript eval file without tsx in the project: its own error says how to fix it.
      if (IdeactError.isInstance(error) && error.code === 'TYPESCRIPT_LOADER_MISSING') throw error;
      throw new InvalidEvalError({
        source: file,
        jsonPath: '',
        reason: `the module does not load (${messageOf(error)})`,
        fix: 'Fix the module so that it loads (run it with node to see the error), and export the spec as its default export.',
        cause: error,
      });
    }
    value = pick(exported, 'default') ?? pick(exported, 'eval') ?? exported;
    if (typeof value === 'function') value = await (value as () => unknown)();
  } else {
    value = parseJson(await readText(file, absolute, ''), file);
  }
  if (!isPlainObject(value)) {
    throw new InvalidEvalError({
      source: file,
      jsonPath: '',
      reason: 'it does not give an eval spec { target, cases, scorers }',
      fix: 'Export the spec (export default { target: { idea: "…" }, cases: [...], scorers: [...] }) or write it as JSON.',
    });
  }
  return {
    spec: value as unknown as EvalSpec,
    file: absolute,
    baseDir: path.dirname(absolute),
    name: path.basename(absolute).replace(/(\.eval)?\.(json|mjs|cjs|js|ts|mts|cts)$/i, ''),
  };
}

/**
 * The cases of a cases file (`.jsonl`: one case per line, blank lines skipped; or `.json`: an array),
 * resolved against `baseDir`. A line that is not a JSON object names the file and line.
 */
export async function readCasesFile(
  casesFile: string,
  baseDir: string,
  source: string,
): Promise<EvalCase[]> {
  const absolute = path.resolve(baseDir, casesFile);
  const text = await readText(source, absolute, '/cases');
  if (absolute.toLowerCase().endsWith('.json')) {
    const value = parseJson(text, absolute);
    if (!Array.isArray(value)) {
      throw new InvalidEvalError({
        source: absolute,
        jsonPath: '',
        reason: 'a .json cases file must hold an array of cases',
      });
    }
    return value as EvalCase[];
  }
  const cases: EvalCase[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InvalidEvalError({
        source: `${absolute}:${index + 1}`,
        jsonPath: '',
        reason: `the line is not JSON (${messageOf(error)})`,
        fix: 'Write one case per line as a JSON object: {"name": "…", "input": …, "expected": …}.',
      });
    }
    if (!isPlainObject(value)) {
      throw new InvalidEvalError({
        source: `${absolute}:${index + 1}`,
        jsonPath: '',
        reason: 'a case must be a JSON object',
      });
    }
    cases.push(value as unknown as EvalCase);
  }
  return cases;
}

async function readText(source: string, file: string, jsonPath: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new InvalidEvalError({
      source,
      jsonPath,
      reason: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`,
      fix: 'Check the path (relative paths resolve from the eval file’s folder).',
      cause: error,
    });
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidEvalError({
      source: file,
      jsonPath: '',
      reason: `it is not valid JSON (${messageOf(error)})`,
      cause: error,
    });
  }
}

function pick(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
