import { declareAppendOnly } from '../runs/state-edits';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { parseVesselOf } from '../protocol/parse-vessel';
import type { VesselSolution } from '../protocol/vessel-solution';
import { runRenderedRequest } from '../requests/run-request';
import type { AgentRuntime } from './agent-runtime';
import { vesselSchemaFor } from './vessel-schema-cache';
import { isPromiseLike } from '../internal/is-promise-like';
import type { StepModule } from './step-module';
import { addRunUsage } from './usage';
import { InvalidSolutionError } from '../errors/invalid-solution.error';
import { EagerCallStarter } from './eager-calls';
import type { StartedCalls } from './started-calls';
import { OutputDeltas } from './output-deltas';

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
    const found = vesselSchemaFor(agent);
    const { toolNames, schema, validator } = isPromiseLike(found) ? await found : found;
    const started = agent.startedCalls;
    const eager =
      // A provider without `stream()` replies in one delta: no Call could start early.
      started !== undefined &&
      typeof agent.provider.stream === 'function' &&
      EagerCallStarter.applies(agent)
        ? new EagerCallStarter(agent, validator(), started)
        : undefined;
    let result;
    try {
      // The Prompter already ran the handler pipeline; its messages (and config) are sent as they are.
      result = await runRenderedRequest(
        {
          messages: step.args.messages,
          schema,
          validator: validator(),
          config: { ...step.args.config, schemaName: step.args.config?.schemaName ?? 'vessel' },
          ...(step.args.cacheBreakpoints === undefined
            ? {}
            : { cacheBreakpoints: step.args.cacheBreakpoints }),
        },
        {
          provider: agent.provider,
          handlers: settings.handlers,
          maxRepairs: settings.maxRepairs,
          signal: settings.signal,
          model: settings.model,
          temperature: settings.temperature,
          n: settings.n,
          // An observed run also gets the output and the Calls' params as they grow (issue 32).
          run: OutputDeltas.contextFor(agent.run),
          onDelta: eager === undefined ? undefined : (delta, index) => eager.write(delta, index),
          // Once Calls of the solution started, the model sees their results before it tries again.
          canRepair: () => (started?.size ?? 0) === 0,
        },
      );
    } catch (error) {
      if (started === undefined || started.size === 0) throw error;
      if (!InvalidSolutionError.isInstance(error)) {
        // The step fails: let the Calls that started finish before the run records the failure.
        await started.settled();
        throw error;
      }
      keepStartedCalls(agent, started, error);
      return;
    }
    if (agent.run === undefined) addRunUsage(state, result.usage);
    const solutions = result.options.length > 0 ? result.options : [result.solution];
    // A loop with push, not `map`: the options stay a packed array however V8 compiles this (issue 28).
    const options: VesselSolution[] = [];
    for (const solution of solutions) options.push(parseVesselOf(solution, toolNames));
    state.usage.turns += 1;
    state.nextStep = {
      module: 'discriminator',
      args: {
        options,
        messages: step.args.messages,
        usage: { ...result.usage },
        ...(result.reasoning === undefined ? {} : { reasoning: result.reasoning }),
      },
    };
  }
}

/**
 * The solution failed validation after some of its Calls had started: they happened, so the turn
 * becomes a Vessel of just those Calls (no output), whose results the Actor records, followed by the
 * validation error; the next turn's request shows the model both (R-REQ-3 through the loop).
 */
function keepStartedCalls(
  agent: AgentRuntime,
  started: StartedCalls,
  error: InvalidSolutionError,
): void {
  const { state } = agent;
  const step = state.nextStep;
  if (step.module !== 'generator') return;
  const calls = started.renumber();
  state.usage.turns += 1;
  state.nextStep = {
    module: 'discriminator',
    args: {
      options: [{ calls, output: null }],
      messages: step.args.messages,
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
      solutionError: error.toCallError(),
    },
  };
}

// It only appends nodes and sets nextStep: the path caches may trust what they checked (issue 28).
declareAppendOnly(VesselGenerator);
