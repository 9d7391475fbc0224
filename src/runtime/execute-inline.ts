import { ActivityFailedError } from '../errors/activity-failed.error';
import { IdeactError } from '../errors/ideact-error';
import { InvalidActivityOutputError } from '../errors/invalid-activity-output.error';
import { InvalidCallOutputError } from '../errors/invalid-call-output.error';
import { InvalidParamsError } from '../errors/invalid-params.error';
import { UnknownActivityError } from '../errors/unknown-activity.error';
import { validateJson } from '../protocol/json-validation';
import type { Message } from '../protocol/message';
import type { CallEnvironment, PreparedCall } from './execute-call';

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
 * Explicit method (R-CALL-3), inline or in module scope: validates the params against the Tool's
 * params schema, runs the Tool's params transformer, then the Activity with `visible` as its context.
 * A thrown non-ideact error becomes `ActivityFailedError` (original message kept); ideact errors pass.
 * When the Tool declares `_output`, the returned value is validated against it.
 * @internal
 */
export async function runActivity(
  env: CallEnvironment,
  prepared: PreparedCall,
  visible: readonly Message[],
  signal: AbortSignal,
): Promise<unknown> {
  const { info } = prepared;
  const activity = env.activities[prepared.activity];
  if (activity === undefined) {
    throw new UnknownActivityError({
      activity: prepared.activity,
      toolName: info.name,
      knownActivities: Object.keys(env.activities),
    });
  }
  const issues = validateJson(info.params, prepared.params);
  if (issues.length > 0) throw new InvalidParamsError({ toolName: info.name, issues });

  let params = prepared.params;
  const transformer = env.paramsTransformers[info.name];
  if (transformer) params = await transformer(params);

  let output: unknown;
  try {
    output = await activity(params, {
      tool: prepared.tool,
      context: visible,
      signal,
      instance: prepared.instance,
      call: prepared.call,
    });
  } catch (error) {
    if (IdeactError.isInstance(error)) throw error;
    throw new ActivityFailedError({
      toolName: info.name,
      activity: prepared.activity,
      cause: error,
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
  return output;
}
