/**
 * The model settings a Call's model requests use (module sub-requests, nested agents): the run's,
 * so a module sees the agent's model and temperature unless its own Idea sets them (DESIGN §8).
 */
export interface CallSettings {
  /** Model name passed to the provider (the provider's default when absent). */
  model?: string;
  /** Sampling temperature passed to the provider (the provider's default when absent). */
  temperature?: number;
}
