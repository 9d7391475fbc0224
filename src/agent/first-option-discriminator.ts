import { declareAppendOnly } from '../runs/state-edits';
import type { AgentRuntime } from './agent-runtime';
import { commitOptions } from './commit-options';
import type { StepModule } from './step-module';

/** The default Discriminator: takes the first option (the others stay in the tree as siblings). */
export class FirstOptionDiscriminator implements StepModule {
  async run(agent: AgentRuntime): Promise<void> {
    commitOptions(agent.state, 0);
  }
}

// It only appends nodes and sets nextStep: the path caches may trust what they checked (issue 28).
declareAppendOnly(FirstOptionDiscriminator);
