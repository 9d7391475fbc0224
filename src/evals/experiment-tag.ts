import { randomBytes } from 'node:crypto';
import type { RunExperiment, RunStore } from '../runs/run-store';

/**
 * An experiment's id: the eval's name as a slug, the UTC start time and a random suffix
 * (`music-20260301T101500-3f9a`), unique and sortable by time within one name.
 */
export function newExperimentId(name: string, started: Date = new Date()): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'eval';
  const time = started
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '');
  return `${slug}-${time}-${randomBytes(2).toString('hex')}`;
}

/**
 * `store`, recording in the header of the top-level run it creates which experiment, case and trial
 * the run is (`RunHeader.experiment`); nested runs and everything else pass through. One per case run.
 */
export function withExperiment(store: RunStore, experiment: RunExperiment): RunStore {
  const flush = store.flush?.bind(store);
  return {
    create: (header, state) =>
      store.create(header.parentRunId === undefined ? { ...header, experiment } : header, state),
    append: (runId, entries) => store.append(runId, entries),
    load: (runId) => store.load(runId),
    list: (filter) => store.list(filter),
    delete: (runId) => store.delete(runId),
    ...(flush === undefined ? {} : { flush }),
  };
}
