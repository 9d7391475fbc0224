import * as path from 'node:path';
import type { AgentState } from '../../runs/agent-state';
import { interruptionsOf } from '../../agent/approvals';
import type { RunOrigin, StoredRun } from '../../runs/run-store';
import type { RunStoreOptions } from './run-store-options';

/**
 * How to continue a stored run, as `ideact runs show` prints it: the exact command for a run whose
 * agent came from an Idea file (`RunHeader.origin`) or that the workers run (`--database-url`), else
 * the code API, since only the code that defines a code-defined agent can rebuild it.
 */
export interface ResumeSuggestion {
  /** `command`: a shell command to run in the same folder; `code`: a statement for that code. */
  kind: 'command' | 'code';
  /** The command or the statement, complete (decisions included for a run awaiting approval). */
  text: string;
  /** For a run awaiting approval: the Call the suggestion approves (the others are listed above it). */
  approves?: string;
  /** True for a run still marked running: resume it only if the process running it has died. */
  ifDead?: boolean;
}

/** What a suggestion depends on besides the run and its store. */
export interface SuggestionContext {
  /** The folder the command runs in (default: the current one); paths inside it are shown relative. */
  cwd?: string;
  /** The Idea the caller just ran the run with (`runs resume --idea`), when its header names none. */
  origin?: RunOrigin;
}

/**
 * The suggestion for `stored` in the store `options` name, or undefined when there is nothing to
 * resume: a completed run, a run that ended for good, a nested run (it resumes with its parent), a
 * running run of the workers (they take over a dead worker's runs themselves).
 */
export function resumeSuggestion(
  stored: StoredRun,
  options: RunStoreOptions,
  context: SuggestionContext = {},
): ResumeSuggestion | undefined {
  const cwd = context.cwd ?? process.cwd();
  const { header, state, status } = stored;
  if (header.parentRunId !== undefined || status === 'completed') return undefined;
  const step = state.nextStep;
  if (step.module === 'done' && step.args.pending === undefined) return undefined;
  const database = options.databaseUrl !== undefined;
  if (status === 'running' && database) return undefined;
  const approves = status === 'awaiting_approval' ? interruptionsOf(state)[0]?.callId : undefined;
  const extra = {
    ...(approves === undefined ? {} : { approves }),
    ...(status === 'running' ? { ifDead: true } : {}),
  };
  const runId = header.runId;
  // A run stopped by its turn limit stops again at once unless the resume raises it.
  const maxTurns =
    step.module === 'done' && step.args.reason === 'max_turns' ? raisedTurns(state) : undefined;
  const turnWords = maxTurns === undefined ? [] : ['--max-turns', String(maxTurns)];
  if (database) {
    const words = ['ideact', 'runs', 'resume', runId, '--database-url'];
    words.push(withoutPassword(options.databaseUrl as string));
    if (options.schema !== undefined) words.push('--schema', options.schema);
    if (options.systemSchema !== undefined) words.push('--system-schema', options.systemSchema);
    if (options.queue !== undefined) words.push('--queue', options.queue);
    words.push(...turnWords);
    if (approves !== undefined) words.push('--approve', approves);
    return { kind: 'command', text: words.map(shellWord).join(' '), ...extra };
  }
  const origin = header.origin ?? context.origin;
  if (origin !== undefined) {
    const words = ['ideact', 'runs', 'resume', runId];
    if (options.dir !== undefined) words.push('--dir', options.dir);
    words.push('--idea', shown(origin.idea, cwd));
    if (origin.moduleRoot !== undefined) words.push('--module-root', shown(origin.moduleRoot, cwd));
    words.push(...turnWords);
    if (approves !== undefined) words.push('--approve', approves);
    return { kind: 'command', text: words.map(shellWord).join(' '), ...extra };
  }
  const dir = path.resolve(cwd, options.dir ?? path.join('.ideact', 'runs'));
  const limit = maxTurns === undefined ? '' : `, maxTurns: ${maxTurns}`;
  const decisions =
    approves === undefined ? '' : `, decisions: { ${code(approves)}: { approve: true } }`;
  return {
    kind: 'code',
    text: `await agent.resume(${code(runId)}, { store: new FileRunStore({ dir: ${code(dir)} })${limit}${decisions} })`,
    ...extra,
  };
}

/** The turn limit a resume of a run stopped at `max_turns` gets: as many turns again as it had. */
export function raisedTurns(state: AgentState): number {
  const turns = state.usage.turns;
  return turns + Math.max(1, state.limits.maxTurns ?? turns);
}

/** A path relative to `cwd` when it lies inside it (shorter to read and to type), else absolute. */
function shown(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  const inside =
    relative !== '' &&
    !path.isAbsolute(relative) &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`);
  return inside ? relative : file;
}

/** A database URL without its password (not printed: set PGPASSWORD or put it back). */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** One shell word: as it is when it needs no quoting, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A TypeScript string literal (single quotes, as the docs' snippets write them). */
function code(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
