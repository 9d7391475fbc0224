import { ActivityFailedError } from '../../errors/activity-failed.error';
import { IdeactError } from '../../errors/ideact-error';
import { InvalidActivityOutputError } from '../../errors/invalid-activity-output.error';
import { InvalidCallOutputError } from '../../errors/invalid-call-output.error';
import { UnknownActivityError } from '../../errors/unknown-activity.error';
import { validateJson } from '../../protocol/json-validation';
import { findJsonDepthViolation, MAX_JSON_DEPTH } from '../../protocol/json-depth';
import type { Message } from '../../protocol/message';
import type { ActivityContext } from '../activity';
import type { CallEnvironment, PreparedCall } from '../call-types';

/**
 * Inline latent (R-CALL-2): the LLM already wrote the output into the Call's `_output`; it is
 * validated against the Tool's `_output` schema. A Tool without an `_output` schema yields `_output`
 * as given (`null` when absent), e.g. for signal-only tools.
 * @internal
 */
export function runInlineLatent(prepared: PreparedCall): Promise<unknown> {
  const schema = prepared.info.output;
  const output = prepared.call._output;
  if (schema === undefined) return Promise.resolve(output ?? null);
  if (output === undefined) {
    return Promise.reject(new InvalidCallOutputError({ toolName: prepared.info.name, issues: [] }));
  }
  const issues = validateJson(schema, output);
  if (issues.length > 0) {
    return Promise.reject(new InvalidCallOutputError({ toolName: prepared.info.name, issues }));
  }
  return Promise.resolve(output);
}

/**
 * Explicit method (R-CALL-3), inline or in module scope: runs the Activity with `params` (validated
 * and transformed by the pipeline) and `visible` as its context. A thrown non-ideact error becomes
 * `ActivityFailedError` (original message kept); ideact errors pass. The returned value may nest at
 * most MAX_JSON_DEPTH levels; when the Tool declares `_output`, it is validated against it (both
 * `InvalidActivityOutputError`).
 * @internal
 */
export async function runActivity(
  env: CallEnvironment,
  prepared: PreparedCall,
  params: Record<string, unknown>,
  visible: readonly Message[],
  signal: AbortSignal,
): Promise<unknown> {
  const activity = env.activities[prepared.activity];
  if (activity === undefined) throw unknownActivity(env, prepared);
  let output: unknown;
  try {
    output = await activity(params, activityContext(prepared, visible, signal));
  } catch (error) {
    throw IdeactError.isInstance(error) ? error : activityFailed(prepared, error);
  }
  checkActivityOutput(prepared, output);
  return output;
}

/** The Tool names an Activity the executor does not have. */
function unknownActivity(env: CallEnvironment, prepared: PreparedCall): UnknownActivityError {
  return new UnknownActivityError({
    activity: prepared.activity,
    toolName: prepared.info.name,
    knownActivities: Object.keys(env.activities),
  });
}

/** An Activity's own error, wrapped (its message kept, the error its `cause`). */
function activityFailed(prepared: PreparedCall, error: unknown): ActivityFailedError {
  return new ActivityFailedError({
    toolName: prepared.info.name,
    activity: prepared.activity,
    cause: error,
  });
}

/**
 * Throws `InvalidActivityOutputError` for an output nested more than MAX_JSON_DEPTH levels (it would
 * overflow the stack later, when it is formatted, merged or saved) or one the Tool's `_output`
 * schema rejects.
 */
function checkActivityOutput(prepared: PreparedCall, output: unknown): void {
  const { info } = prepared;
  const tooDeep = findJsonDepthViolation(output);
  if (tooDeep !== undefined) {
    throw new InvalidActivityOutputError({
      toolName: info.name,
      activity: prepared.activity,
      problem: `is nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep`,
      issues: [{ path: tooDeep.jsonPath, message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  }
  if (info.output !== undefined) {
    const outputIssues = validateJson(info.output, output ?? null);
    if (outputIssues.length > 0) {
      throw new InvalidActivityOutputError({
        toolName: info.name,
        activity: prepared.activity,
        issues: outputIssues,
      });
    }
  }
}

/**
 * What the Activity receives besides its params: the same fields as spreading the Call's identity
 * into it, set one by one (no spread per Call, issue 28); `runId` only for a Call of a run.
 */
function activityContext(
  prepared: PreparedCall,
  visible: readonly Message[],
  signal: AbortSignal,
): ActivityContext {
  const { identity } = prepared;
  const context: ActivityContext = {
    tool: prepared.tool,
    context: visible,
    signal,
    instance: prepared.instance,
    call: prepared.call,
    callId: identity.callId,
    attempt: identity.attempt,
  };
  if (identity.runId !== undefined) context.runId = identity.runId;
  return context;
}
