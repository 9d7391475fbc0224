import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import type { AgentState, DiscriminatorStep, NodeMetadata, TokenUsage } from '../runs/agent-state';
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
  options.forEach((option, index) => {
    const chosen = index === chosenIndex;
    const metadata: NodeMetadata = chosen
      ? {
          module: 'discriminator',
          chosen: true,
          option: index,
          usage,
          ...(solutionError === undefined ? {} : { solutionError }),
          ...chosenMetadata,
        }
      : { module: 'discriminator', chosen: false, option: index };
    const thinking = reasoning?.[index];
    const node = appendNode(
      state,
      {
        type: 'vessel',
        calls: option.calls,
        output: option.output ?? null,
        // The model's reasoning stays with its choice: the Prompter sends it back on later turns.
        ...(thinking === undefined || thinking.length === 0 ? {} : { reasoning: thinking }),
      },
      metadata,
      parent,
      { makeHead: false },
    );
    if (chosen) chosenId = node.id;
  });
  state.head = chosenId;
  state.nextStep = { module: 'actor', args: { nodeId: chosenId } };
  return chosenId;
}
