import type { CallOutcome } from './call';
import { cloneJson, setOwn } from './merge-patch';
import type { Message } from './message';
import { parseOutputPath, type OutputTarget } from './path-expression';

/**
 * R-OUT-1: the patch messages that write a Call's outcome at `outputPath`, to append to the context.
 * Success → the output at every path of the first `||` alternative (`a && b` fans out); failure → the
 * `{ error: { code, message } }` object at the last alternative, or nothing when there is no `||`.
 * `state` paths give `{ type: 'state' }` patches, `†<kind>.path` gives `{ type: 'data', kind }`.
 * Unsafe segments throw `UnsafePathError` (R-OUT-2); malformed paths `InvalidOutputPathError`.
 */
export function applyOutputPath(
  outputPath: string,
  outcome: CallOutcome,
  instance?: string,
): Message[] {
  const alternatives = parseOutputPath(outputPath);
  let targets: OutputTarget[];
  let value: unknown;
  if (outcome.error !== undefined) {
    if (alternatives.length < 2) return [];
    targets = alternatives[alternatives.length - 1] as OutputTarget[];
    value = { error: { code: outcome.error.code, message: outcome.error.message } };
  } else {
    targets = alternatives[0] as OutputTarget[];
    value = outcome.output;
  }
  return targets.map((target) => patchMessage(target, value, instance));
}

function patchMessage(target: OutputTarget, value: unknown, instance: string | undefined): Message {
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
  return message;
}
