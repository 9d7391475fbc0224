import type { Call } from './call';

/** What a Vessel Request returns: the Calls the LLM chose and an optional final output. */
export interface VesselSolution {
  calls: Call[];
  output: unknown | null;
}
