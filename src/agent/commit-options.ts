import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type {
  AgentState,
  DiscriminatorStep,
  NodeMetadata,
  TokenUsage,
  VesselMessage,
} from '../runs/agent-state';
import { appendNode } from '../runs/state-tree';

/** The discriminator step's args, checked (a hand-set `nextStep` may be wrong). */
export function discriminatorArgs(state: AgentState): DiscriminatorStep['args'] {
  const step = state.nextStep;
  if (step.module !== 'discriminator' || step.args.options.length === 0) {
    throw new InvalidAgentStateError({
      jsonPath: '/nextStep',
      reason:
        'a Discriminator needs nextStep = { module: "discriminator", args: { options: [at least one] } }',
    });
  }
  return step.args;
}

/**
 * Appends every option as a sibling node under the head (non-chosen ones stay in the tree for
 * inspection), makes the chosen one the head and hands it to the Actor.
 */
export function commitOptions(
  state: AgentState,
  chosenIndex: number,
  chosenMetadata: Partial<NodeMetadata> & { usage?: TokenUsage } = {},
): number {
  const { options, usage, solutionError, reasoning } = discriminatorArgs(state);
  const parent = state.head;
  let chosenId = -1;
  // Once per turn: a loop, and fields set one by one instead of spread literals (issue 28).
  for (let index = 0; index < options.length; index++) {
    const option = options[index] as (typeof options)[number];
    const chosen = index === chosenIndex;
    let metadata: NodeMetadata;
    if (chosen) {
      metadata = { module: 'discriminator', chosen: true, option: index, usage };
      if (solutionError !== undefined) metadata.solutionError = solutionError;
      Object.assign(metadata, chosenMetadata);
    } else {
      metadata = { module: 'discriminator', chosen: false, option: index };
    }
    const message: VesselMessage = {
      type: 'vessel',
      calls: option.calls,
      output: option.output ?? null,
    };
    // The model's reasoning stays with its choice: the Prompter sends it back on later turns.
    const thinking = reasoning?.[index];
    if (thinking !== undefined && thinking.length > 0) message.reasoning = thinking;
    const node = appendNode(state, message, metadata, parent, { makeHead: false });
    if (chosen) chosenId = node.id;
  }
  state.head = chosenId;
  state.nextStep = { module: 'actor', args: { nodeId: chosenId } };
  return chosenId;
}
