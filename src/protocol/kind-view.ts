import { dataView, type DataMessageView } from './data-view';
import { applyMergePatchInPlace, cloneJson } from './merge-patch';
import type { Message } from './message';

/**
 * The merged data of one kind as seen by `instance` (R-INST-1): the global messages of that kind
 * merged in order, then that instance's messages applied over them as patches, in order (the
 * targeted one overrides; a null in it deletes a global key for that instance).
 * Without `instance`, only global messages count. Undefined when no message of the kind applies.
 */
export function viewOfKind(
  context: readonly Message[],
  kind: string,
  instance?: string,
): Omit<DataMessageView, 'instance'> | undefined {
  let global: Omit<DataMessageView, 'instance'> | undefined;
  const targeted: DataMessageView[] = [];
  for (const message of context) {
    const view = dataView(message);
    if (view === undefined || view.kind !== kind) continue;
    if (view.instance === undefined) global = accumulate(global, view);
    else if (instance !== undefined && view.instance === instance) targeted.push(view);
  }
  // The instance's messages patch the merged global data in order, so they override it (and a
  // null in them deletes a global key for that instance only).
  let result = global;
  for (const view of targeted) result = accumulate(result, view);
  return result;
}

function accumulate(
  accumulated: Omit<DataMessageView, 'instance'> | undefined,
  view: DataMessageView,
): Omit<DataMessageView, 'instance'> {
  if (accumulated === undefined) {
    const first: Omit<DataMessageView, 'instance'> = {
      kind: view.kind,
      data: cloneJson(view.data),
    };
    if (view.schema !== undefined) first.schema = view.schema;
    if (view.description !== undefined) first.description = view.description;
    return first;
  }
  accumulated.data = applyMergePatchInPlace(accumulated.data, view.data);
  if (view.schema !== undefined) accumulated.schema = view.schema;
  if (view.description !== undefined) accumulated.description = view.description;
  return accumulated;
}
