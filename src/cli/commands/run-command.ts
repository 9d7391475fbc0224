import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CliUsageError } from '../../errors/cli-usage.error';
import { isInputMessage } from '../../protocol/data-view';
import type { Idea } from '../../protocol/idea';
import type { JSONSchema } from '../../protocol/json-schema';
import type { Message } from '../../protocol/message';
import type { AgentResult } from '../../agent/agent-options';
import type { AgentState } from '../../runs/agent-state';
import type { RunEvent } from '../../runs/run-event';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { seconds } from '../progress/progress-format';
import { createRunProgress } from '../progress/run-progress';
import type { TraceFile } from '../trace/trace-file';
import { raisedTurns } from './resume-suggestion';
import { ideaRunOrigin, withRunOrigin } from './run-origin-store';
import { positiveInteger } from './run-store-options';
import { selectProvider } from './select-provider';

/** Options of `ideact run` as commander parsed them (strings; checked here). */
export interface RunCommandOptions {
  input?: string;
  provider?: string;
  model?: string;
  maxTurns?: string;
  state?: string;
  resume?: string;
  moduleRoot?: string;
  /** `--json`: every RunEvent as one JSON line on stdout instead of the output alone. */
  json?: boolean;
  /** `--trace FILE`: the run's OpenTelemetry spans as JSON lines in FILE. */
  trace?: string;
}

/**
 * `ideact run <idea.json>`: runs the Idea as an agent (its Vessel's Tools, or none for a plain Idea
 * whose schema is the output), with progress from the run's events on stderr and the final output as
 * JSON on stdout (with `--json`: every event as a JSON line instead). Ctrl-C aborts after the current
 * step, saves the state and exits 130.
 */
export async function runCommand(
  ideaFile: string,
  options: RunCommandOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const maxTurns = positiveInteger(options.maxTurns, '--max-turns');
  if (
    options.state !== undefined &&
    options.resume !== undefined &&
    path.resolve(options.state) !== path.resolve(options.resume)
  ) {
    throw new CliUsageError({
      option: '--state',
      reason: 'cannot be combined with a different --resume file',
      fix: 'A resumed run keeps saving to its --resume file; drop --state.',
    });
  }
  const input =
    options.input === undefined ? undefined : { value: await parseInputOption(options.input) };

  // Heavy modules (runtime, openai) load only here, so `ideact --help` stays fast.
  const ideact = await import('./run-dependencies');
  const { readIdeaFile } = await import('../../codegen/read-idea-file');
  const { vesselIdeaParts } = await import('../../protocol/vessel-idea');

  const idea = await readIdeaFile(ideaFile);
  const context =
    input === undefined ? idea.context : withInput(idea, input.value, ideaFile, ideact);
  const { provider, model } = await selectProvider(options, io, { announce: true });
  const parts = vesselIdeaParts({ ...idea, context });
  const tools = parts?.tools ?? [];
  const output: JSONSchema | undefined = parts === undefined ? idea.schema : parts.output;

  // The OpenTelemetry SDK loads only for --trace (the library itself depends on the API alone).
  const tracing: TraceFile | undefined =
    options.trace === undefined
      ? undefined
      : await (await import('../trace/trace-file')).startTraceFile(options.trace);

  const started = Date.now();
  const agent = ideact.createAgent({
    tools,
    provider,
    // `_module: "helper.json"` names the Idea's sibling, wherever the command runs (like an import).
    moduleRoot: path.resolve(options.moduleRoot ?? path.dirname(ideaFile)),
    ...(model === undefined ? {} : { model }),
    ...(tracing === undefined ? {} : { trace: { tracer: tracing.tracer } }),
  });

  const progress = createRunProgress(io, started);
  const json = options.json === true;
  const onEvent = (event: RunEvent): void => {
    if (json) io.stdout(`${JSON.stringify(event)}\n`);
    progress.onEvent(event);
  };
  const controller = new AbortController();
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(ExitCode.interrupted);
    interrupted = true;
    progress.notice(
      'ideact: interrupted; stopping after the current step and saving the state (Ctrl-C again to quit now)\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let result: AgentResult;
  let state: AgentState | undefined;
  let unsubscribe = (): void => undefined;
  // `--state FILE` is the one-run store of FILE, whose run header records this Idea (RunHeader.origin).
  const origin = ideaRunOrigin(ideaFile, options.moduleRoot);
  const store =
    options.state === undefined || options.resume !== undefined
      ? undefined
      : withRunOrigin(new ideact.StateFileRunStore(options.state), origin);
  try {
    const run =
      options.resume !== undefined
        ? await agent.resumeRun(options.resume, { maxTurns, signal: controller.signal })
        : agent.start({
            context: parts?.context ?? context,
            output,
            maxTurns,
            signal: controller.signal,
            ...(store === undefined ? {} : { store }),
          });
    state = run.state;
    unsubscribe = run.subscribe(onEvent, { deltas: json || progress.wantsDeltas });
    result = await run.result();
  } catch (error) {
    progress.finish();
    await saveOnFailure(state, options, ideaFile, io, ideact.saveStateFile);
    throw error;
  } finally {
    await store?.close?.();
    unsubscribe();
    process.removeListener('SIGINT', onSigint);
    progress.finish();
    if (tracing !== undefined) await finishTrace(tracing, io);
  }

  const usage = result.usage;
  io.stderr(
    `ideact: stopped: ${result.stopReason} after ${usage.turns} turn(s), ${usage.inputTokens + usage.outputTokens} tokens, ${seconds(Date.now() - started)}\n`,
  );
  if (interrupted || result.stopReason === 'aborted') {
    reportFailedCalls(result, io);
    const saved = await saveState(result, options, ideaFile, ideact.saveStateFile);
    io.stderr(
      `ideact: state saved to ${saved}; continue with: ${continueCommand(ideaFile, saved, options, result)}\n`,
    );
    return ExitCode.interrupted;
  }
  if (result.stopReason === 'output' || result.stopReason === 'no_calls') {
    // With --json the output is in the run-end event, and stdout holds events only.
    if (!json) io.stdout(`${JSON.stringify(result.output ?? null, null, 2)}\n`);
    reportFailedCalls(result, io);
    return ExitCode.ok;
  }
  reportFailedCalls(result, io);
  const saved = await saveState(result, options, ideaFile, ideact.saveStateFile);
  const error =
    result.state.nextStep.module === 'done' ? result.state.nextStep.args.error : undefined;
  io.stderr(
    `ideact: the run ended without an output (${result.stopReason}${error === undefined ? '' : `: ${error.code}: ${error.message}`}); ` +
      `state saved to ${saved}; continue with: ${continueCommand(ideaFile, saved, options, result)}\n`,
  );
  return ExitCode.failure;
}

type IdeactModule = typeof import('./run-dependencies');

/**
 * `--trace` writes its file after the run; a failure to write it is reported, not thrown, so it never
 * hides the run's own outcome.
 */
async function finishTrace(tracing: TraceFile, io: CliIo): Promise<void> {
  try {
    await tracing.finish();
  } catch (error) {
    io.stderr(
      `ideact: --trace: the spans could not be written (${error instanceof Error ? error.message : String(error)})\n`,
    );
  }
}

/** `--input`: inline JSON, or `@file` holding JSON. */
async function parseInputOption(text: string): Promise<unknown> {
  let source = text;
  let where = 'the value';
  if (text.startsWith('@')) {
    const file = text.slice(1);
    where = file;
    try {
      source = await fs.readFile(file, 'utf8');
    } catch {
      throw new CliUsageError({
        option: '--input',
        reason: `the file ${file} cannot be read`,
        fix: 'Pass --input @<path of a JSON file> or the JSON itself.',
      });
    }
  }
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    throw new CliUsageError({
      option: '--input',
      reason: `${where} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      fix: `Quote the JSON for your shell, e.g. --input '{"topic":"rain"}', or pass @file.json.`,
    });
  }
}

/** The Idea's context with its input message(s) replaced by one holding `value` (same schema). */
function withInput(idea: Idea, value: unknown, ideaFile: string, ideact: IdeactModule): Message[] {
  const found = ideact.findIdeaInput(idea);
  const schema = found?.schema;
  if (schema !== undefined) {
    const issues = ideact.validateJson(schema, value);
    if (issues.length > 0) {
      throw new CliUsageError({
        option: '--input',
        reason: `does not match the input schema of ${ideaFile}: ${ideact.formatIssues(issues).replace(/\n/g, '; ')}`,
        fix: 'Fix the input so it matches the schema (see the Idea’s input message).',
      });
    }
  }
  const message: Message =
    schema === undefined
      ? { type: 'input', input: value }
      : { type: 'input', input: value, schema };
  const first = idea.context.findIndex(isInputMessage);
  const rest = idea.context.filter((item) => !isInputMessage(item));
  if (first === -1) return [...rest, message];
  const before = idea.context.slice(0, first).filter((item) => !isInputMessage(item));
  return [...before, message, ...rest.slice(before.length)];
}

/**
 * After the output, on stderr: every Call whose result was an error (the model saw it, R-CALL-5), so a
 * run that ended with an output still shows what failed on the way; stacks of non-ideact errors too.
 */
function reportFailedCalls(result: AgentResult, io: CliIo): void {
  if (result.failedCalls.length === 0) return;
  io.stderr(`ideact: ${result.failedCalls.length} failed call(s) during the run:\n`);
  for (const failed of result.failedCalls) {
    const where = failed.chain === undefined ? '' : ` in ${failed.chain.join(' → ')}`;
    const message = failed.message.replace(/\n/g, '\n    ');
    io.stderr(`  ${failed.callId} ${failed.tool}${where}: ${failed.code}: ${message}\n`);
    if (failed.stack !== undefined) {
      io.stderr(`${failed.stack.replace(/^/gm, '    ')}\n`);
    }
  }
}

/**
 * The command that continues the run saved in `saved`: the same Idea (and --module-root, if given);
 * a run stopped by its turn limit gets as many turns again (else it would stop at once).
 */
function continueCommand(
  ideaFile: string,
  saved: string,
  options: RunCommandOptions,
  result: AgentResult,
): string {
  const root = options.moduleRoot === undefined ? '' : ` --module-root ${options.moduleRoot}`;
  const turns =
    result.stopReason === 'max_turns' ? ` --max-turns ${raisedTurns(result.state)}` : '';
  return `ideact run ${ideaFile}${root} --resume ${saved}${turns}`;
}

/** Where the state goes when the run has no --state/--resume file: `<idea>.state.json` in the cwd. */
function defaultStateFile(ideaFile: string): string {
  const base = path.basename(ideaFile).replace(/(\.idea)?\.json$/i, '');
  return `${base}.state.json`;
}

async function saveState(
  result: AgentResult,
  options: RunCommandOptions,
  ideaFile: string,
  save: IdeactModule['saveStateFile'],
): Promise<string> {
  const file = options.resume ?? options.state;
  if (file !== undefined) return file; // the agent saved it after every step
  const target = defaultStateFile(ideaFile);
  await save(target, result.state, { origin: ideaRunOrigin(ideaFile, options.moduleRoot) });
  return target;
}

async function saveOnFailure(
  state: AgentResult['state'] | undefined,
  options: RunCommandOptions,
  ideaFile: string,
  io: CliIo,
  save: IdeactModule['saveStateFile'],
): Promise<void> {
  if (state === undefined || options.state !== undefined || options.resume !== undefined) return;
  const target = defaultStateFile(ideaFile);
  try {
    await save(target, state, { origin: ideaRunOrigin(ideaFile, options.moduleRoot) });
    io.stderr(`ideact: state saved to ${target}\n`);
  } catch {
    // The run's own error is what the user needs to see.
  }
}
