import { InvalidOutputWriteError } from '../errors/invalid-output-write.error';
import type { CallOutcome } from './call';
import { valueAtPath } from './data-fold';
import { viewOfKind } from './kind-view';
import { cloneJson, setOwn } from './merge-patch';
import type { Message } from './message';
import { DEFAULT_OUTPUT_METHOD, type OutputMethod } from './output-method';
import { writePathText } from './output-write';
import { parseOutputPath, type OutputTarget } from './path-expression';

/** What a write records besides the value (R-OUT-5), and what it is checked against (R-OUT-7). */
export interface OutputWriteOptions {
  /** How a successful output is written (R-OUT-3); default `set`. A failure is always `set`. */
  method?: OutputMethod;
  /** The Call's id, recorded as `_call` and named in errors. */
  callId?: string;
  /** The write's time (ISO 8601), recorded as `_date`; the protocol has no clock, the caller gives it. */
  date?: string;
  /** The Tool's name, named in errors. */
  toolName?: string;
  /**
   * The context the Call ran with: `push` / `concat` onto a value there that is not an array fail
   * with `InvalidOutputWriteError` (R-OUT-7). Without it only the output itself is checked.
   */
  context?: readonly Message[];
}

/**
 * R-OUT-1: the write messages that record a Call's outcome at `outputPath`, to append to the context.
 * Success → the output at every path of the first `||` alternative (`a && b` fans out), written with
 * `options.method`; failure → the `{ error: { code, message } }` object `set` at the last alternative,
 * or nothing when there is no `||`. `state` paths give `{ type: 'state' }` messages, `†<kind>.path`
 * gives `{ type: 'data', kind }`; each holds the value nested at its path plus `_outputPath`,
 * `_outputMethod` and, when given, `_call` and `_date` (R-OUT-5). Unsafe segments throw
 * `UnsafePathError` (R-OUT-2); malformed paths `InvalidOutputPathError`; a push / concat that cannot
 * apply `InvalidOutputWriteError` (R-OUT-7).
 */
export function applyOutputPath(
  outputPath: string,
  outcome: CallOutcome,
  instance?: string,
  options: OutputWriteOptions = {},
): Message[] {
  const alternatives = parseOutputPath(outputPath);
  let targets: OutputTarget[];
  let value: unknown;
  let method = options.method ?? DEFAULT_OUTPUT_METHOD;
  if (outcome.error !== undefined) {
    if (alternatives.length < 2) return [];
    targets = alternatives[alternatives.length - 1] as OutputTarget[];
    value = { error: { code: outcome.error.code, message: outcome.error.message } };
    method = DEFAULT_OUTPUT_METHOD;
  } else {
    targets = alternatives[0] as OutputTarget[];
    value = outcome.output;
  }
  for (const target of targets) checkWrite(target, value, method, instance, options);
  return targets.map((target) => writeMessage(target, value, method, instance, options));
}

/** R-OUT-7: push / concat need an array (or nothing) at the path; concat an array output. */
function checkWrite(
  target: OutputTarget,
  value: unknown,
  method: OutputMethod,
  instance: string | undefined,
  options: OutputWriteOptions,
): void {
  if (method !== 'push' && method !== 'concat') return;
  const fail = (reason: string): never => {
    throw new InvalidOutputWriteError({
      path: writePathText(target.kind, target.path),
      method,
      reason,
      callId: options.callId,
      toolName: options.toolName,
    });
  };
  if (method === 'concat' && !Array.isArray(value)) {
    fail(`the output is ${describe(value)}, not an array`);
  }
  if (options.context === undefined) return;
  const current = valueAtPath(
    viewOfKind(options.context, target.kind, instance)?.data,
    target.path,
  );
  if (current !== undefined && current !== null && !Array.isArray(current)) {
    fail(`the value there is ${describe(current)}, not an array`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function writeMessage(
  target: OutputTarget,
  value: unknown,
  method: OutputMethod,
  instance: string | undefined,
  options: OutputWriteOptions,
): Message {
  let nested = cloneJson(value);
  for (let index = target.path.length - 1; index >= 0; index--) {
    const wrapper: Record<string, unknown> = {};
    setOwn(wrapper, target.path[index] as string, nested);
    nested = wrapper;
  }
  const message: Message =
    target.kind === 'state'
      ? { type: 'state', state: nested }
      : { type: 'data', kind: target.kind, data: nested };
  if (instance !== undefined) message._instance = instance;
  message._outputPath = writePathText(target.kind, target.path);
  message._outputMethod = method;
  if (options.callId !== undefined) message._call = options.callId;
  if (options.date !== undefined) message._date = options.date;
  return message;
}
