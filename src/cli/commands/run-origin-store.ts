import * as path from 'node:path';
import type { RunOrigin, RunStore } from '../../runs/run-store';

/**
 * `store`, recording in the header of each top-level run it creates where the run's agent came from
 * (`RunHeader.origin`: the Idea of `ideact run`), so `ideact runs show` can print the command that
 * resumes the run. Everything else is passed through; nested runs resume with their parent.
 */
export function withRunOrigin(store: RunStore, origin: RunOrigin): RunStore {
  const flush = store.flush?.bind(store);
  const close = store.close?.bind(store);
  return {
    create: (header, state) =>
      store.create(header.parentRunId === undefined ? { ...header, origin } : header, state),
    append: (runId, entries) => store.append(runId, entries),
    load: (runId) => store.load(runId),
    list: (filter) => store.list(filter),
    delete: (runId) => store.delete(runId),
    ...(flush === undefined ? {} : { flush }),
    ...(close === undefined ? {} : { close }),
  };
}

/** The origin of a run of `ideact run <ideaFile>`: the Idea (absolute) and `--module-root`, if given. */
export function ideaRunOrigin(ideaFile: string, moduleRoot: string | undefined): RunOrigin {
  return {
    idea: path.resolve(ideaFile),
    ...(moduleRoot === undefined ? {} : { moduleRoot: path.resolve(moduleRoot) }),
  };
}
