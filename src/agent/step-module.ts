import type { AgentRuntime } from './agent-runtime';

/**
 * One step of the agent loop (Prompter, Generator, Discriminator or Actor, seed 001): it reads the
 * agent's state, does its work, and says what runs next by setting `state.nextStep`. It returns nothing;
 * modules coordinate only through `nextStep` (R-LOOP-2), so any one can be swapped in the container.
 */
export interface StepModule<TAgent = AgentRuntime> {
  run(agent: TAgent): Promise<void>;
}
