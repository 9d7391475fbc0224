import { dataView, type DataMessageView } from './data-view';
import { applyMergePatch, applyMergePatchInPlace, cloneJson } from './merge-patch';
import type { Message } from './message';

/**
 * The merged data of one kind as seen by `instance` (R-INST-1): the global messages of that kind
 * merged in order, then that instance's messages merged over them (the targeted one overrides).
 * Without `instance`, only global messages count. Undefined when no message of the kind applies.
 */
export function viewOfKind(
  context: readonly Message[],
  kind: string,
  instance?: string,
): Omit<DataMessageView, 'instance'> | undefined {
  let global: Omit<DataMessageView, 'instance'> | undefined;
  let targeted: Omit<DataMessageView, 'instance'> | undefined;
  for (const message of context) {
    const view = dataView(message);
    if (view === undefined || view.kind !== kind) continue;
    if (view.instance === undefined) global = accumulate(global, view);
    else if (instance !== undefined && view.instance === instance)
      targeted = accumulate(targeted, view);
  }
  if (global === undefined || targeted === undefined) return global ?? targeted;
  const merged: Omit<DataMessageView, 'instance'> = {
    ...global,
    data: applyMergePatch(global.data, targeted.data),
  };
  if (targeted.schema !== undefined) merged.schema = targeted.schema;
  if (targeted.description !== undefined) merged.description = targeted.description;
  return merged;
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
