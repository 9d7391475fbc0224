import { InvalidAgentStateError } from '../../errors/invalid-agent-state.error';
import { parseVessel } from '../../protocol/parse-vessel';
import { runRenderedRequest } from '../request/run-request';
import type { AgentRuntime } from './agent-runtime';
import { vesselSchemaFor } from './vessel-schema-cache';
import type { StepModule } from './step-module';
import { addRunUsage } from './usage';

/**
 * The default Generator (R-LOOP-2): one Request whose schema is the Vessel of the Toolkit's tools and
 * the run's output schema, asking for `settings.n` options. The solutions are validated (and repaired)
 * by the request pipeline; the options and their usage go to the Discriminator.
 */
export class VesselGenerator implements StepModule {
  async run(agent: AgentRuntime): Promise<void> {
    const { state, settings } = agent;
    const step = state.nextStep;
    if (step.module !== 'generator' || !Array.isArray(step.args.messages)) {
      throw new InvalidAgentStateError({
        jsonPath: '/nextStep',
        reason: 'the Generator needs nextStep = { module: "generator", args: { messages: [...] } }',
      });
    }
    const { tools, schema } = await vesselSchemaFor(agent);
    // The Prompter already ran the handler pipeline; its messages (and config) are sent as they are.
    const result = await runRenderedRequest(
      {
        messages: step.args.messages,
        schema,
        config: { ...step.args.config, schemaName: step.args.config?.schemaName ?? 'vessel' },
      },
      {
        provider: agent.provider,
        handlers: settings.handlers,
        maxRepairs: settings.maxRepairs,
        signal: settings.signal,
        model: settings.model,
        temperature: settings.temperature,
        n: settings.n,
      },
    );
    const solutions = result.options.length > 0 ? result.options : [result.solution];
    const options = solutions.map((solution) => parseVessel(solution, tools));
    addRunUsage(state, result.usage);
    state.usage.turns += 1;
    state.nextStep = {
      module: 'discriminator',
      args: {
        options,
        messages: step.args.messages,
        usage: {
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          cachedTokens: result.usage.cachedTokens,
        },
      },
    };
  }
}
