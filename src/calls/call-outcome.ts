import { CallCancelledError } from '../errors/call-cancelled.error';
import { CallFailedError } from '../errors/call-failed.error';
import { IdeactError } from '../errors/ideact-error';
import { applyOutputPath } from '../protocol/apply-output-path';
import type { Call } from '../protocol/call';
import type { Message, ResultMessage } from '../protocol/message';
import type { WriteSetting } from './call-preparation';
import type { CallRun } from './call-types';

/**
 * The last step of the call pipeline: a Call's outcome as the messages a caller appends — its
 * `result` message, then the writes of its `_outputPath` (R-OUT-1, R-OUT-5) — whether it succeeded,
 * failed, was rejected or was cancelled (R-CALL-5: a failure is a result, never a throw).
 */

/**
 * `[result, ...writes]` of a Call's outcome; an output write that fails turns a success into that
 * error (its result says why). @internal
 */
export function finishCall(
  call: Call,
  outcome: { output?: unknown; error?: IdeactError },
  write: WriteSetting,
  instance: string | undefined,
): CallRun {
  let error = outcome.error;
  let patches: Message[] | undefined;
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
      patches = undefined;
    }
  }
  if (error) {
    const result: ResultMessage = { type: 'result', call, error: error.toCallError() };
    return { messages: withPatches(result, patches), error };
  }
  const result: ResultMessage = { type: 'result', call, output: outcome.output };
  return { messages: withPatches(result, patches), output: outcome.output };
}

/** `[result, ...patches]`; a Call without an output path (most) spreads nothing. */
function withPatches(result: ResultMessage, patches: Message[] | undefined): Message[] {
  return patches === undefined || patches.length === 0 ? [result] : [result, ...patches];
}

/** Runs a Call that failed before it started (batch cancellation) through the same result shape. @internal */
export function failedRun(call: Call, error: IdeactError): CallRun {
  return finishCall(call, { error }, {}, undefined);
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

/** Non-ideact errors become `CallFailedError` so every result error has a stable code. @internal */
export function toIdeactError(error: unknown, call: Call): IdeactError {
  if (IdeactError.isInstance(error)) return error;
  return new CallFailedError({ toolName: String(call._tool), cause: error });
}
