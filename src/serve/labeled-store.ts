import type { RunStore } from '../runs/run-store';

/**
 * `store`, recording `labels` in the header of each top-level run it creates (a served run's owner
 * and target, issue 32); everything else, served events included, is passed through.
 */
export function withRunLabels(store: RunStore, labels: Record<string, string>): RunStore {
  const pass = <TKey extends keyof RunStore>(key: TKey): Partial<RunStore> => {
    const method = store[key];
    return typeof method === 'function' ? { [key]: method.bind(store) } : {};
  };
  return {
    create: (header, state) =>
      store.create(
        header.parentRunId === undefined
          ? { ...header, labels: { ...header.labels, ...labels } }
          : header,
        state,
      ),
    append: (runId, entries) => store.append(runId, entries),
    load: (runId) => store.load(runId),
    list: (filter) => store.list(filter),
    delete: (runId) => store.delete(runId),
    ...pass('flush'),
    ...pass('close'),
    ...pass('appendEvents'),
    ...pass('readEvents'),
  };
}
