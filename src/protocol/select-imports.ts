import { ImportNotAllowedError } from '../errors/import-not-allowed.error';
import type { Call } from './call';
import { dataView, messageInstance, messageKind } from './data-view';
import { foldOutputWrites } from './merge-data';
import type { Message } from './message';
import type { ToolInfo } from './tool-info';

/**
 * R-IMP-1 / R-SCOPE-1: the kinds a Call imports: the Tool's static kinds as declared, or for a
 * dynamic Tool the list the Call chose under the Tool's field (`_imports` or `_scopes`; the other
 * name is read when that one is absent; none chosen = none imported), each checked against the
 * Tool's enum; undefined when the Tool imports nothing. Throws `ImportNotAllowedError` for a kind
 * outside the enum and for a value that is not a list (`"_scopes": "notes"` is never silently ignored).
 * @internal
 */
export function importedKinds(info: ToolInfo, call: Call): string[] | undefined {
  const setting = info.imports;
  if (setting.mode === 'none') return undefined;
  if (setting.mode === 'static') return setting.kinds;
  const other = setting.field === '_imports' ? '_scopes' : '_imports';
  const field =
    call[setting.field] === undefined && call[other] !== undefined ? other : setting.field;
  const written: unknown = call[field];
  if (written === undefined || written === null) return [];
  if (!Array.isArray(written) || written.some((kind) => typeof kind !== 'string')) {
    throw new ImportNotAllowedError({
      toolName: info.name,
      kinds: Array.isArray(written) ? written.map(describeKind) : [describeKind(written)],
      allowed: setting.kinds,
      written,
      field,
    });
  }
  const chosen = written as string[];
  const rejected = chosen.filter((kind) => !setting.kinds.includes(kind));
  if (rejected.length > 0) {
    throw new ImportNotAllowedError({
      toolName: info.name,
      kinds: rejected,
      allowed: setting.kinds,
      field,
    });
  }
  return chosen;
}

function describeKind(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * R-IMP-1 + R-INST-1: the context messages a Call may see, in order. A kind names a data kind
 * (`input`, `state`, `user`, …) or a message type (`text`, `system`, `result`, `data` = every data,
 * input and state message). With `instance`: global messages plus that instance's; without: all messages of those kinds.
 * The output writes of an identity (R-OUT-5) are folded into one message at the first one's place
 * (R-OUT-10), so an Activity reads them like plain data; plain data messages are returned as they are.
 */
export function selectImports(
  context: readonly Message[],
  kinds: readonly string[],
  instance?: string,
): Message[] {
  const allowed = new Set(kinds);
  const selected = context.filter((message) => {
    const wanted =
      allowed.has(messageKind(message)) ||
      allowed.has(message.type) ||
      (allowed.has('data') && dataView(message) !== undefined);
    if (!wanted) return false;
    if (instance === undefined) return true;
    const owner = messageInstance(message);
    return owner === undefined || owner === instance;
  });
  return foldOutputWrites(selected);
}
