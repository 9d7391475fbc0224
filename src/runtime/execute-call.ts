import { randomUUID } from 'node:crypto';
import { untilAborted } from '../internal/until-aborted';
import { CallCancelledError } from '../errors/call-cancelled.error';
import { CallFailedError } from '../errors/call-failed.error';
import { IdeactError } from '../errors/ideact-error';
import { OutputPathNotAllowedError } from '../errors/output-path-not-allowed.error';
import { UnknownToolError } from '../errors/unknown-tool.error';
import { applyOutputPath } from '../protocol/apply-output-path';
import type { Attributes } from '@opentelemetry/api';
import type { Call, CallError } from '../protocol/call';
import type { Message, ResultMessage } from '../protocol/message';
import type { OutputMethod } from '../protocol/output-method';
import { chooseOutputMethod } from '../protocol/read-output-method';
import { readTool, resolveActivity } from '../protocol/read-tool';
import { resolveReferences } from '../protocol/resolve-references';
import { importedKinds, selectImports } from '../protocol/select-imports';
import type { ToolInfo } from '../protocol/tool-info';
import type { ToolSchema } from '../protocol/tool-schema';
import { runActivity, runInlineLatent } from './execute-inline';
import { runModule } from './execute-module';
import { RunContext } from './run-context';
import type { RunEvent } from './run-event';
import { contentJson, recordSpanError, recordsContent, withSpan } from './tracing';

import type { CallEnvironment, CallOptions, CallRun, PreparedCall } from './call-types';

/**
 * Executes one Call and never throws for its failures (R-CALL-5): `[result, ...writes]`.
 * Steps: look up the Tool, choose the output path and method, resolve `†` references, select
 * imports, dispatch on Scope × Method, then write the outcome through `_outputPath` (R-OUT-5: each
 * write records the call id — `options.callId`, or a generated `call_…` — the date and the method).
 * @internal
 */
export function executeCall(
  env: CallEnvironment,
  call: Call,
  context: readonly Message[],
  options: CallOptions = {},
): Promise<CallRun> {
  const toolName = String(call._tool);
  const attributes: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': toolName,
  };
  if (options.callId !== undefined) attributes['gen_ai.tool.call.id'] = options.callId;
  return withSpan(`execute_tool ${toolName}`, attributes, async (span) => {
    if (recordsContent(span)) span.setAttribute('gen_ai.tool.call.arguments', paramsJson(call));
    const run = await runCall(env, call, context, options);
    if (run.error !== undefined) recordSpanError(span, run.error);
    else if (recordsContent(span)) {
      span.setAttribute('gen_ai.tool.call.result', contentJson(run.output));
    }
    return run;
  });
}

/** The Call's params (its keys without the `_` meta-fields) as JSON, for content tracing. */
function paramsJson(call: Call): string {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call)) if (!key.startsWith('_')) params[key] = value;
  return contentJson(params);
}

async function runCall(
  env: CallEnvironment,
  call: Call,
  context: readonly Message[],
  options: CallOptions,
): Promise<CallRun> {
  const instance = typeof call._instance === 'string' ? call._instance : options.instance;
  const signal = options.signal ?? new AbortController().signal;
  const write: WriteSetting = { callId: options.callId ?? generatedCallId(), context };
  let output: unknown;
  try {
    const tool = env.tools.get(call._tool);
    if (tool === undefined) {
      throw new UnknownToolError({
        toolName: String(call._tool),
        knownTools: [...env.tools.keys()],
      });
    }
    const info = readTool(tool);
    write.toolName = info.name;
    write.path = chooseOutputPath(info, call);
    if (write.path !== undefined) write.method = chooseOutputMethod(info, call);
    const prepared = prepare(env, call, tool, info, context, instance, identityOf(options, write));
    const reports = { run: usageReporting(options), onNestedRun: options.onNestedRun };
    // Rejects with CallCancelledError as soon as the signal aborts (the Activity may ignore it).
    output = await untilAborted(dispatch(env, prepared, context, signal, reports), signal, () =>
      cancelledError(signal, info.name),
    );
    if (output === undefined) output = null;
  } catch (error) {
    const typed = toIdeactError(error, call);
    return reportError(finish(call, { error: typed }, write, instance), options);
  }
  return reportError(finish(call, { output }, write, instance), options);
}

/** Where and how a Call's outcome is written, and what the write records (R-OUT-5). */
interface WriteSetting {
  /** The output path; undefined = the outcome is not written. */
  path?: string;
  method?: OutputMethod;
  callId?: string;
  toolName?: string;
  /** The context the Call ran with (push / concat are checked against it, R-OUT-7). */
  context?: readonly Message[];
}

/** The id of a Call run outside the agent loop (which passes `<vessel node id>:<index>`). */
function generatedCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** The Call's id (the same its writes record), run and attempt, for its Activity. */
function identityOf(options: CallOptions, write: WriteSetting): PreparedCall['identity'] {
  const identity: PreparedCall['identity'] = {
    callId: write.callId ?? generatedCallId(),
    attempt: options.attempt ?? 1,
  };
  if (options.run !== undefined) identity.runId = options.run.runId;
  return identity;
}

/** The Call's run context, with `onUsage` (an adapter over `request-end` events) attached. */
function usageReporting(options: CallOptions): RunContext | undefined {
  const onUsage = options.onUsage;
  if (onUsage === undefined) return options.run;
  const listener = (event: RunEvent): void => {
    if (event.type === 'request-end') onUsage(event.usage);
  };
  return options.run === undefined
    ? RunContext.detached({ signal: options.signal, listener })
    : options.run.tap(listener);
}

function reportError(run: CallRun, options: CallOptions): CallRun {
  if (run.error !== undefined) options.onError?.(run.error);
  return run;
}

function finish(
  call: Call,
  outcome: { output?: unknown; error?: IdeactError },
  write: WriteSetting,
  instance: string | undefined,
): CallRun {
  let error = outcome.error;
  let patches: Message[] = [];
  if (write.path !== undefined) {
    try {
      patches = applyOutputPath(
        write.path,
        error ? { error: error.toCallError() } : { output: outcome.output },
        instance,
        {
          method: write.method,
          callId: write.callId,
          toolName: write.toolName,
          context: write.context,
          date: new Date().toISOString(),
        },
      );
    } catch (pathError) {
      error = error ?? toIdeactError(pathError, call);
      patches = [];
    }
  }
  if (error) {
    const result: ResultMessage = { type: 'result', call, error: toCallError(error) };
    return { messages: [result, ...patches], error };
  }
  const result: ResultMessage = { type: 'result', call, output: outcome.output };
  return { messages: [result, ...patches], output: outcome.output };
}

/** The output path a Call writes to: the Tool's fixed path, or the LLM's (allowed) choice. */
function chooseOutputPath(info: ToolInfo, call: Call): string | undefined {
  const setting = info.outputPath;
  if (setting.mode === 'fixed') return setting.path;
  if (setting.mode === 'none' || typeof call._outputPath !== 'string' || call._outputPath === '') {
    return undefined;
  }
  if (setting.paths !== undefined && !setting.paths.includes(call._outputPath)) {
    throw new OutputPathNotAllowedError({
      toolName: info.name,
      path: call._outputPath,
      allowed: setting.paths,
    });
  }
  return call._outputPath;
}

function prepare(
  env: CallEnvironment,
  call: Call,
  tool: ToolSchema,
  info: ToolInfo,
  context: readonly Message[],
  instance: string | undefined,
  identity: PreparedCall['identity'],
): PreparedCall {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call)) {
    if (!key.startsWith('_')) raw[key] = value;
  }
  const params = resolveReferences(raw, context, instance);
  const kinds = importedKinds(info, call);
  const activity = resolveActivityName(env, tool);
  const prepared: PreparedCall = { call, tool, info, params, activity, identity };
  if (instance !== undefined) prepared.instance = instance;
  if (kinds !== undefined) prepared.imports = selectImports(context, kinds, instance);
  return prepared;
}

function resolveActivityName(env: CallEnvironment, tool: ToolSchema): string {
  return resolveActivity(tool, new Set(Object.keys(env.activities)));
}

async function dispatch(
  env: CallEnvironment,
  prepared: PreparedCall,
  context: readonly Message[],
  signal: AbortSignal,
  reports: Pick<CallOptions, 'run' | 'onNestedRun'>,
): Promise<unknown> {
  const isModule = prepared.info.module !== undefined;
  const isExplicit = prepared.activity !== '';
  if (!isModule && !isExplicit) return runInlineLatent(prepared);
  if (isExplicit) {
    // Inline: the imports if set, else the parent context. Module: only the imports (R-CALL-3).
    const visible = prepared.imports ?? (isModule ? [] : context);
    return runActivity(env, prepared, visible, signal);
  }
  return runModule(env, prepared, signal, reports);
}

/** The CallCancelledError for an aborted signal; a string reason is used as the explanation. @internal */
export function cancelledError(signal: AbortSignal, toolName: string): CallCancelledError {
  const reason: unknown = signal.reason;
  if (CallCancelledError.isInstance(reason)) return reason;
  const text =
    typeof reason === 'string'
      ? reason
      : 'the caller aborted it' +
        (reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : '');
  return new CallCancelledError({ toolName, reason: text });
}

/** Non-ideact errors become `CallFailedError` so every result error has a stable code. */
function toIdeactError(error: unknown, call: Call): IdeactError {
  if (IdeactError.isInstance(error)) return error;
  return new CallFailedError({ toolName: String(call._tool), cause: error });
}

function toCallError(error: IdeactError): CallError {
  return { code: error.code, message: error.message };
}

/** Runs a Call that failed before it started (batch cancellation) through the same result shape. @internal */
export function failedRun(call: Call, error: IdeactError): CallRun {
  return finish(call, { error }, {}, undefined);
}
