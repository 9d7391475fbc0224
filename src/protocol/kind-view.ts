import { foldMessages } from './data-fold';
import { dataView, type DataMessageView } from './data-view';
import type { Message } from './message';

/**
 * The merged data of one kind as seen by `instance` (R-INST-1): the global messages of that kind
 * folded in order, then that instance's messages applied over them, in order (the targeted one
 * overrides; a null in a patch deletes a global key for that instance). Output writes fold by their
 * method (R-OUT-6). Without `instance`, only global messages count. Undefined when no message of the
 * kind applies.
 */
export function viewOfKind(
  context: readonly Message[],
  kind: string,
  instance?: string,
): Omit<DataMessageView, 'instance'> | undefined {
  const global: Message[] = [];
  const targeted: Message[] = [];
  for (const message of context) {
    const view = dataView(message);
    if (view === undefined || view.kind !== kind) continue;
    if (view.instance === undefined) global.push(message);
    else if (instance !== undefined && view.instance === instance) targeted.push(message);
  }
  if (global.length + targeted.length === 0) return undefined;
  // The instance's messages come after every global one, so they override it.
  const folded = foldMessages([...global, ...targeted]);
  const result: Omit<DataMessageView, 'instance'> = { kind, data: folded.data };
  if (folded.schema !== undefined) result.schema = folded.schema;
  if (folded.description !== undefined) result.description = folded.description;
  return result;
}
