import type { RunHeader } from '../runs/run-store';

/**
 * A run's header as the worker's agent factory sees it: the stored header plus the agent name. For
 * a nested run (`nestedModule` set) the factory returns the root agent; the worker derives the nested one.
 */
export interface WorkerRunHeader extends RunHeader {
  /** The name the run was enqueued with (`enqueueRun({ agentName })`), if any. */
  agentName?: string;
}
