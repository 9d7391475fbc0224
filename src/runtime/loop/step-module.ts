/**
 * One step of the agent loop (Prompter, Generator, Discriminator or Actor, seed 001): it reads the
 * agent's state, does its work, and says what runs next by setting `state.nextStep`. It returns nothing.
 * The loop issue refines `TAgent` to the agent's runtime view.
 */
export interface StepModule<TAgent = unknown> {
  run(agent: TAgent): Promise<void>;
}
