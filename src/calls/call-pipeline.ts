import type { Attributes } from '@opentelemetry/api';
import { CallRejectedError } from '../errors/call-rejected.error';
import type { IdeactError } from '../errors/ideact-error';
import { isPromiseLike } from '../internal/is-promise-like';
import { untilAborted } from '../internal/until-aborted';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import {
  callNeedsApproval,
  decidedCall,
  type ApprovalAnswer,
  type ConfirmDecision,
} from './call-approval';
import { cancelledError, finishCall, toIdeactError } from './call-outcome';
import {
  generatedCallId,
  prepareCall,
  validateParams,
  type WriteSetting,
} from './call-preparation';
import type {
  CallEnvironment,
  CallOptions,
  CallRun,
  CallSettings,
  PreparedCall,
} from './call-types';
import { runActivity, runInlineLatent } from './executors/execute-inline';
import { runModule } from './executors/execute-module';
import { RunContext } from '../runs/run-context';
import type { Usage } from '../llm/provider';
import { contentJson, recordSpanError, recordsContent, withSpan } from '../runs/tracing';

/**
 * THE call pipeline (DESIGN §8): every Call, from every entry point — the agent loop's Actor and
 * eager start, `executor.call` / `agent.call`, the MCP server, the playground, workers, the CLI —
 * takes these steps, in this order, and nowhere else:
 *
 * 1. resolve the Tool (`UnknownToolError`), its output path and method;
 * 2. resolve `†` references and select imports;
 * 3. validate the params against the Tool's schema (explicit, latent and module Tools alike);
 * 4. approval: a person's `decision`, else the policy (the Tool's `needsApproval`, the predicates)
 *    and the entry point's way to ask (`approval`); an edit goes through steps 1–3 again;
 * 5. journal the start (`starting`: the attempt) and emit `call-start`;
 * 6. execute with the run's settings (Activity, latent, module, Toolset) under the signal;
 * 7. validate the output (depth, the Tool's `_output`);
 * 8. write it (`_outputPath`), emit `call-end`, record the span.
 *
 * Never throws for a failing Call (R-CALL-5): the failure is its result. A Call held for approval
 * returns `{ messages: [], held: true }`: nothing ran. @internal
 */
export function runCall(
  env: CallEnvironment,
  call: Call,
  context: readonly Message[],
  options: CallOptions = {},
): Promise<CallRun> {
  // A run whose spans nobody records opens none (issue 28: no span objects for nobody).
  if (options.run?.traced === false) return pipeline(env, call, context, options);
  const toolName = String(call._tool);
  const attributes: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': toolName,
  };
  if (options.callId !== undefined) attributes['gen_ai.tool.call.id'] = options.callId;
  return withSpan(`execute_tool ${toolName}`, attributes, async (span) => {
    if (recordsContent(span)) span.setAttribute('gen_ai.tool.call.arguments', paramsJson(call));
    const run = await pipeline(env, call, context, options);
    if (run.error !== undefined) recordSpanError(span, run.error);
    else if (recordsContent(span) && !run.held) {
      span.setAttribute('gen_ai.tool.call.result', contentJson(run.output));
    }
    return run;
  });
}

async function pipeline(
  env: CallEnvironment,
  written: Call,
  context: readonly Message[],
  options: CallOptions,
): Promise<CallRun> {
  const callId = options.callId ?? generatedCallId();
  const instance = typeof written._instance === 'string' ? written._instance : options.instance;
  const signal = options.signal ?? new AbortController().signal;
  const write: WriteSetting = { callId, context };
  const identity: PreparedCall['identity'] = { callId, attempt: options.attempt ?? 1 };
  if (options.run !== undefined) identity.runId = options.run.runId;
  const events = new CallEvents(options.run, callId);
  let call = written;
  let started = false;
  let journal: { failed: unknown } | undefined;
  try {
    let prepared = prepareCall(env, call, context, instance, identity, write);
    const validated = validateParams(env, prepared);
    // Awaited only when a transformer made it a promise: each `await` is a turn of the queue.
    let params = isPromiseLike(validated) ? await validated : validated;
    // Code is its own approver (`'caller'`, the default), and a Call the policy lets through needs
    // nobody: no promise to ask nobody (issue 28).
    const decision =
      options.decision ??
      (mustAsk(env, prepared, options) ? await ask(prepared, options) : undefined);
    if (decision !== undefined) {
      if ('hold' in decision) return { messages: [], held: true };
      if ('reject' in decision)
        return rejected(prepared, call, decision, events, write, instance, options);
      if ('edit' in decision) {
        call = decidedCall(call, decision);
        prepared = prepareCall(env, call, context, instance, identity, write);
        params = await validateParams(env, prepared);
      }
    }
    started = true;
    const journaling = start(events, call, identity, options);
    if (journaling !== undefined) {
      await journaling.catch((error: unknown) => {
        journal = { failed: error };
        throw error;
      });
    }
    const output = await untilAborted(
      dispatch(env, prepared, params, context, signal, options, callId),
      signal,
      () => cancelledError(signal, prepared.info.name),
    );
    const run = finishCall(call, { output: output ?? null }, write, instance);
    events.end(call, run);
    return report(run, options);
  } catch (thrown) {
    // A journal that cannot record the start fails the caller (the run's step), not the Call.
    if (journal !== undefined) throw journal.failed;
    return failed(thrown, call, started, events, identity, options, write, instance);
  }
}

/** A Call a person rejected (step 4): `CallRejectedError` is its result; nothing ran. */
function rejected(
  prepared: PreparedCall,
  call: Call,
  decision: { reject: string },
  events: CallEvents,
  write: WriteSetting,
  instance: string | undefined,
  options: CallOptions,
): CallRun {
  const error = new CallRejectedError({ toolName: prepared.info.name, reason: decision.reject });
  events.end(call, { error });
  return report(finishCall(call, { error }, write, instance), options);
}

/**
 * A Call that failed in any step: the error, typed, is its result (R-CALL-5); a Call that failed
 * before its start was journaled and announced is started first, so every `call-end` has its
 * `call-start`. Apart from the pipeline, which the optimizing compiler takes early (issue 28).
 */
async function failed(
  thrown: unknown,
  call: Call,
  started: boolean,
  events: CallEvents,
  identity: PreparedCall['identity'],
  options: CallOptions,
  write: WriteSetting,
  instance: string | undefined,
): Promise<CallRun> {
  const error = toIdeactError(thrown, call);
  if (!started) await start(events, call, identity, options);
  const run = finishCall(call, { error }, write, instance);
  events.end(call, run);
  return report(run, options);
}

/**
 * Steps 1–3 alone, for an entry point that checks a Call before it starts one (the playground's form
 * answers 400 at once): the typed error the pipeline would give the Call, or undefined when it
 * would pass them. The same functions as {@link runCall}'s, so the rule stays in one place. @internal
 */
export async function checkCall(
  env: CallEnvironment,
  call: Call,
  context: readonly Message[] = [],
  instance?: string,
): Promise<IdeactError | undefined> {
  const write: WriteSetting = {};
  try {
    const prepared = prepareCall(env, call, context, instance, { callId: '', attempt: 1 }, write);
    await validateParams(env, prepared);
    return undefined;
  } catch (error) {
    return toIdeactError(error, call);
  }
}

/**
 * Step 4 without a person's decision, once {@link mustAsk} said so: asks the entry point
 * (`options.approval`) and checks its answer. (`'caller'`, the default, approves: code is its own
 * approver.)
 */
async function ask(
  prepared: PreparedCall,
  options: CallOptions,
): Promise<ApprovalAnswer | undefined> {
  const approval = options.approval;
  if (approval === undefined || approval === 'caller') return undefined;
  const answer: ApprovalAnswer = await approval({
    callId: prepared.identity.callId,
    toolName: prepared.info.name,
    tool: prepared.tool,
    params: structuredClone(prepared.params),
    call: structuredClone(prepared.call),
  });
  return checkedAnswer(answer);
}

/** True when step 4 has someone to ask: an entry point's way to ask and a policy that says so. */
function mustAsk(env: CallEnvironment, prepared: PreparedCall, options: CallOptions): boolean {
  const approval = options.approval ?? 'caller';
  return approval !== 'caller' && needsApproval(env, prepared, options);
}

/**
 * The approval policy for this Call: its Tool's flag, the executor's predicate, the run's (asked once
 * when they are the same function, as with `createAgent`, which passes one config to both).
 */
function needsApproval(
  env: CallEnvironment,
  prepared: PreparedCall,
  options: CallOptions,
): boolean {
  const own = options.needsApproval;
  const executor = env.needsApproval;
  if (own === undefined || own === executor) {
    return callNeedsApproval(prepared.tool, prepared.call, executor);
  }
  return (
    callNeedsApproval(prepared.tool, prepared.call, executor) ||
    callNeedsApproval(prepared.tool, prepared.call, own)
  );
}

/** An Approver's answer, checked: anything but a decision or `{ hold }` rejects (never runs). */
function checkedAnswer(answer: unknown): ApprovalAnswer {
  if (typeof answer === 'object' && answer !== null) {
    const record = answer as Record<string, unknown>;
    if (record.approve === true || record.hold === true) return answer as ApprovalAnswer;
    if (typeof record.reject === 'string') return answer as ConfirmDecision;
    if (typeof record.edit === 'object' && record.edit !== null) return answer as ConfirmDecision;
  }
  return { reject: `the approval answered ${contentJson(answer)}, not a decision` };
}

/**
 * Step 5: the start journaled (its attempt) and announced; a promise only when the journal writes
 * (a run with a store), so a Call of a run without one awaits nothing here.
 */
function start(
  events: CallEvents,
  call: Call,
  identity: PreparedCall['identity'],
  options: CallOptions,
): Promise<void> | undefined {
  const attempt = options.starting?.(identity.callId);
  if (attempt instanceof Promise) {
    return attempt.then((journaled) => {
      identity.attempt = journaled;
      events.start(call, options.eager === true);
    });
  }
  if (attempt !== undefined) identity.attempt = attempt;
  events.start(call, options.eager === true);
  return undefined;
}

/** Steps 6–7: runs the Call by Scope × Method (R-CALL-1); each executor validates its output. */
function dispatch(
  env: CallEnvironment,
  prepared: PreparedCall,
  params: Record<string, unknown>,
  context: readonly Message[],
  signal: AbortSignal,
  options: CallOptions,
  callId: string,
): Promise<unknown> {
  const isModule = prepared.info.module !== undefined;
  const isExplicit = prepared.activity !== '';
  if (!isModule && !isExplicit) return runInlineLatent(prepared);
  if (isExplicit) {
    // Inline: the imports if set, else the parent context. Module: only the imports (R-CALL-3).
    const visible = prepared.imports ?? (isModule ? [] : context);
    return runActivity(env, prepared, params, visible, signal);
  }
  return runModule(env, prepared, signal, {
    run: callContext(options, callId),
    onNestedRun: options.onNestedRun,
    settings: settingsOf(env, options),
  });
}

/** The run's settings for this Call: the Call's own (the run's), else the executor's, per field. */
function settingsOf(env: CallEnvironment, options: CallOptions): CallSettings {
  const own = options.settings;
  if (own === undefined) return env.settings;
  const settings: CallSettings = { ...env.settings };
  if (own.model !== undefined) settings.model = own.model;
  if (own.temperature !== undefined) settings.temperature = own.temperature;
  return settings;
}

/**
 * Where the Call's model requests and nested runs report: the run's context for this Call (its path
 * gains the call id), with `onUsage` (an adapter over `request-end` events) attached.
 */
function callContext(options: CallOptions, callId: string): RunContext | undefined {
  const onUsage = options.onUsage;
  const usage = onUsage === undefined ? undefined : (tokens: Usage): void => onUsage(tokens);
  if (options.run !== undefined) return options.run.forCall(callId, { usage });
  if (usage === undefined) return undefined;
  return RunContext.detached({ signal: options.signal, usage });
}

function report(run: CallRun, options: CallOptions): CallRun {
  if (run.error !== undefined) options.onError?.(run.error);
  return run;
}

/** The Call's params (its keys without the `_` meta-fields). */
function paramsOf(call: Call): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call)) if (!key.startsWith('_')) params[key] = value;
  return params;
}

/** The Call's params as JSON, for content tracing. */
function paramsJson(call: Call): string {
  return contentJson(paramsOf(call));
}

/** Step 5 and 8's events of one Call, on the run it belongs to (none without a run). */
class CallEvents {
  private readonly run: RunContext | undefined;

  constructor(
    run: RunContext | undefined,
    private readonly callId: string,
  ) {
    // Built only for someone who reads them (issue 28): no reader, no event objects.
    this.run = run?.listened === true ? run : undefined;
  }

  start(call: Call, eager: boolean): void {
    if (this.run === undefined) return;
    const event = {
      type: 'call-start' as const,
      callId: this.callId,
      tool: String(call._tool),
      params: paramsOf(call),
      eager,
    };
    this.run.emit(
      typeof call._instance === 'string' ? { ...event, instance: call._instance } : event,
    );
  }

  end(call: Call, outcome: { output?: unknown; error?: IdeactError }): void {
    if (this.run === undefined) return;
    const event = { type: 'call-end' as const, callId: this.callId, tool: String(call._tool) };
    this.run.emit(
      outcome.error === undefined
        ? { ...event, output: outcome.output }
        : { ...event, error: outcome.error.toCallError() },
    );
  }
}
