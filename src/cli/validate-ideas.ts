import * as path from 'node:path';
import { readJsonFile } from '../codegen/read-idea-file';
import { childPath } from '../codegen/naming';
import type { Idea } from '../protocol/idea';
import { isInputMessage } from '../protocol/data-view';
import { findIdeaInput } from '../protocol/invert-idea';
import { InvalidIdeaError } from '../errors/invalid-idea.error';
import { isPlainObject } from '../internal/is-plain-object';
import { findIdeaProblems } from '../protocol/idea-problems';
import { findIdeaSchemaProblems } from '../protocol/idea-schema-problems';
import type { JSONSchema } from '../protocol/json-schema';
import { findJsonDepthViolation } from '../protocol/json-depth';
import { formatIssues, validateJson } from '../protocol/json-validation';
import { vocabularyName, type ProtocolVocabulary } from '../protocol/protocol-vocabulary';
import { ModuleLoader } from '../calls/module-loader';
import { displayModuleId, isUrlReference } from '../calls/module-path';

/** One problem found in an Idea file: where (file + JSON Pointer) and what. */
export interface IdeaProblem {
  /** The file at fault (a given Idea or a module it references). */
  file: string;
  /** JSON Pointer inside the file, `''` for the whole file. */
  jsonPath: string;
  /** What is wrong and, where possible, how to fix it. */
  message: string;
}

/** What `validate` learned about one given Idea file. */
export interface IdeaReport {
  /** The file as given. */
  file: string;
  /** Problems in the file and in the modules it references (empty = valid). */
  problems: IdeaProblem[];
  /** Facts worth showing even when valid: input present or not, modules found. */
  notes: string[];
  /** False when the file itself is missing or not JSON (bad input rather than an invalid Idea). */
  readable: boolean;
}

/** Options of {@link validateIdeas}. */
export interface ValidateIdeasOptions {
  /**
   * Root module references resolve in; default: each Idea's own folder, so `_module: "helper.json"`
   * names the Idea's sibling wherever `validate` runs (as in `ideact run` and `codegen`).
   */
  moduleRoot?: string;
}

/**
 * The delegate references a schema declares (`{ _module: { const: '…' } }` or the newer
 * `{ _delegate: { const: '…' } }`), with their JSON paths and the vocabulary they are written in.
 */
interface ModuleReference {
  reference: string;
  jsonPath: string;
  /** `seeds` for `_module`, `acts` for `_delegate`: messages use the same words (module / delegate). */
  vocabulary: ProtocolVocabulary;
}

/**
 * Validates Idea files (`ideact validate`): JSON syntax, the Idea structure, every schema being valid
 * JSON Schema, the input data and the solution against their schemas, and every `_module` (or
 * `_delegate`, R-DEL-1) resolving to an Idea inside the module root, recursively, without cycles.
 * Lists every problem of an Idea, not only the first. Never throws for problems in files.
 */
export async function validateIdeas(
  files: string[],
  options: ValidateIdeasOptions = {},
): Promise<IdeaReport[]> {
  const reports: IdeaReport[] = [];
  for (const file of files) {
    const root = path.resolve(options.moduleRoot ?? path.dirname(file));
    const report: IdeaReport = { file, problems: [], notes: [], readable: true };
    const idea = await loadIdea(file, report);
    if (idea !== undefined) {
      checkIdea(idea, file, report);
      const loader = new ModuleLoader({ moduleRoot: root });
      const checked = new Set<string>();
      await checkModules(idea, file, [path.resolve(file)], { loader, root, checked, report });
    }
    reports.push(report);
  }
  return reports;
}

/**
 * Reads the file and lists its structural problems. Returns the Idea when its shape lets the deeper
 * checks run (an object with a `context` array and a `schema` object), even with problems inside.
 */
async function loadIdea(file: string, report: IdeaReport): Promise<Idea | undefined> {
  let value: unknown;
  try {
    value = await readJsonFile(file);
  } catch (error) {
    report.readable = false;
    report.problems.push(problemFrom(error, file));
    return undefined;
  }
  report.problems.push(
    ...findIdeaProblems(value, file).map((problem) => problemFrom(problem, file)),
  );
  const usable =
    isPlainObject(value) &&
    Array.isArray(value.context) &&
    isPlainObject(value.schema) &&
    findJsonDepthViolation(value) === undefined;
  return usable ? (value as unknown as Idea) : undefined;
}

/** The shape is valid (structural problems inside may be listed already); checks schemas, input and solution. */
function checkIdea(idea: Idea, file: string, report: IdeaReport): void {
  const problems = report.problems;
  const listed = problems.map((problem) => problem.jsonPath);
  const broken = (base: string): boolean => listed.some((jsonPath) => isAtOrUnder(jsonPath, base));
  const badReference = (base: string): boolean =>
    listed.some((jsonPath) => isAtOrUnder(jsonPath, base) && jsonPath.endsWith('/$ref'));
  // A schema with a dangling or cyclic $ref is listed once and not compiled: a $ref cycle would
  // overflow the validator's stack.
  const schemaProblems = findIdeaSchemaProblems(
    {
      schema: badReference('/schema') ? {} : idea.schema,
      context: idea.context.map((message, index) =>
        badReference(`/context/${index}/schema`) ? { type: 'text', text: '' } : message,
      ),
    },
    file,
  );
  problems.push(...schemaProblems.map((problem) => problemFrom(problem, file)));
  const schemaOk =
    !broken('/schema') && !schemaProblems.some((item) => item.jsonPath === '/schema');
  // The input check reads the messages: only when every message is well-formed.
  if (!broken('/context')) checkInput(idea, file, report);
  if (idea.solution !== undefined && schemaOk) {
    const issues = safeValidate(idea.schema, idea.solution);
    if (issues !== undefined && issues.length > 0) {
      problems.push({
        file,
        jsonPath: '/solution',
        message: `the solution does not match the schema:\n${formatIssues(issues)}`,
      });
    }
  }
}

/** Notes whether the Idea has an input message; its data must match its schema. */
function checkInput(idea: Idea, file: string, report: IdeaReport): void {
  const input = findIdeaInput(idea);
  if (input === undefined) {
    report.notes.push('no input message (the Idea takes no params)');
    return;
  }
  report.notes.push(
    `input message present${input.schema === undefined ? ' (without a schema)' : ''}`,
  );
  const index = idea.context.findIndex(isInputMessage);
  if (input.schema === undefined || input.data === undefined) return;
  const issues = safeValidate(input.schema, input.data);
  if (issues !== undefined && issues.length > 0) {
    report.problems.push({
      file,
      jsonPath: `/context/${index}`,
      message: `the input data does not match the input schema:\n${formatIssues(issues)}`,
    });
  }
}

/** True when `jsonPath` is `base` or a path inside it. */
function isAtOrUnder(jsonPath: string, base: string): boolean {
  return jsonPath === base || jsonPath.startsWith(`${base}/`);
}

function safeValidate(
  schema: JSONSchema,
  value: unknown,
): ReturnType<typeof validateJson> | undefined {
  try {
    return validateJson(schema, value);
  } catch {
    return undefined;
  }
}

interface ModuleCheck {
  loader: ModuleLoader;
  root: string;
  checked: Set<string>;
  report: IdeaReport;
}

/** Loads every `_module` / `_delegate` the Idea declares (inside the root), recursing and detecting cycles. */
async function checkModules(
  idea: Idea,
  file: string,
  chain: string[],
  check: ModuleCheck,
): Promise<void> {
  for (const { reference, jsonPath, vocabulary } of moduleReferences(idea.schema, '/schema')) {
    if (reference === 'anonymous') continue;
    const noun = vocabularyName('delegate', vocabulary);
    if (isUrlReference(reference)) {
      check.report.notes.push(`${jsonPath}: URL ${noun} ${reference} not fetched by validate`);
      continue;
    }
    let id: string;
    let moduleIdea: Idea;
    try {
      const loaded = await check.loader.load(reference);
      id = loaded.id;
      moduleIdea = loaded.idea;
    } catch (error) {
      // A module that is not a valid Idea: all its problems, each in the module file at its path.
      const inModule = InvalidIdeaError.isInstance(error) ? await moduleProblems(error) : [];
      if (inModule.length > 0) check.report.problems.push(...inModule);
      else check.report.problems.push({ ...problemFrom(error, file), jsonPath });
      continue;
    }
    if (chain.includes(id)) {
      const names = [...chain, id].map((entry) => displayModuleId(entry, check.root));
      check.report.problems.push({
        file,
        jsonPath,
        message: `${noun} cycle: ${names.join(' → ')}; a ${noun} may not call itself, directly or through other ${noun}s`,
      });
      continue;
    }
    if (check.checked.has(id)) continue;
    check.checked.add(id);
    check.report.notes.push(`${noun} ${reference} resolves to ${displayModuleId(id, check.root)}`);
    const moduleReport: IdeaReport = { file: id, problems: [], notes: [], readable: true };
    checkIdea(moduleIdea, id, moduleReport);
    check.report.problems.push(...moduleReport.problems);
    await checkModules(moduleIdea, id, [...chain, id], check);
  }
}

/** Finds `_module` / `_delegate: { const: '…' }` anywhere in a schema (tools inside a Vessel's `calls`). */
function moduleReferences(schema: unknown, jsonPath: string): ModuleReference[] {
  const found: ModuleReference[] = [];
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, childPath(at, index)));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    const properties = record.properties as Record<string, unknown> | undefined;
    let here: unknown;
    for (const vocabulary of ['seeds', 'acts'] as const) {
      const field = vocabularyName('delegateField', vocabulary);
      const module = properties?.[field] as { const?: unknown } | undefined;
      // Both names written with one value (parseIdea allows only that) make one reference.
      if (module === undefined || typeof module.const !== 'string' || module.const === here)
        continue;
      here = module.const;
      found.push({
        reference: module.const,
        jsonPath: childPath(childPath(childPath(at, 'properties'), field), 'const'),
        vocabulary,
      });
    }
    for (const [key, item] of Object.entries(record)) walk(item, childPath(at, key));
  };
  walk(schema, jsonPath);
  return found;
}

/** Every structural problem of the module file an InvalidIdeaError names (empty when it cannot be read). */
async function moduleProblems(error: InvalidIdeaError): Promise<IdeaProblem[]> {
  if (isUrlReference(error.source)) return [];
  let value: unknown;
  try {
    value = await readJsonFile(error.source);
  } catch {
    return [];
  }
  return findIdeaProblems(value, error.source).map((problem) => problemFrom(problem, error.source));
}

function problemFrom(error: unknown, file: string): IdeaProblem {
  const record = (typeof error === 'object' && error !== null ? error : {}) as {
    source?: unknown;
    jsonPath?: unknown;
  };
  return {
    file: typeof record.source === 'string' ? record.source : file,
    jsonPath: typeof record.jsonPath === 'string' ? record.jsonPath : '',
    message: error instanceof Error ? error.message : String(error),
  };
}
