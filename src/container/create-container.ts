import { randomUUID } from 'node:crypto';
import type { ContainerInstance } from 'typedi';
import { checkToolActivities } from '../decorators/check-tool-activities';
import { collectToolEntries } from '../decorators/collect-tool-entries';
import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { MissingProviderError } from '../errors/missing-provider.error';
import { hasProviderEnvironment } from '../llm/choose-provider';
import { createDefaultProvider } from '../llm/default-provider';
import { Executor } from '../calls/executor';
import { executorWithNestedAgents } from '../agent/nested-agent-runner';
import { ModuleLoader } from '../calls/module-loader';
import { Toolkit } from '../calls/toolkit';
import { splitToolsets } from '../calls/toolset';
import { collectActivities } from './collect-activities';
import type { IdeactConfig } from './ideact-config';
import {
  ACTIVITIES,
  IDEACT_CONFIG,
  MODULE_RUNNER,
  PARAMS_TRANSFORMERS,
  PROVIDER,
  TOOLS,
  TOOLSETS,
} from './tokens';
import { StandInAwareContainer } from './stand-in-aware-container';

/**
 * Creates a scoped typedi container (a `ContainerInstance` of its own, not registered in typedi's
 * global list, so nothing stays behind once it is garbage) wired from `config`: tokens PROVIDER,
 * IDEACT_CONFIG, TOOLS, ACTIVITIES, PARAMS_TRANSFORMERS (MODULE_RUNNER is used when set; else agent
 * modules run as nested agents, see `executorWithNestedAgents`), and the
 * classes ModuleLoader, Toolkit and Executor as their own tokens. Everything is built lazily on first `get`, so `container.set(…)` before
 * that replaces a piece (a provider, an Activity service's dependency). Checks the configuration first
 * and throws ContainerConfigurationError / DecoratorError with potential solutions, and
 * MissingProviderError when there is no `provider` and no OPENAI_API_KEY / OPENAI_BASE_URL (no silent
 * offline fallback).
 */
export function createContainer(config: IdeactConfig): ContainerInstance {
  if (typeof config !== 'object' || config === null) {
    throw new ContainerConfigurationError({
      setting: 'config',
      problem: 'expected a configuration object.',
      solutions: ['Call `createContainer({ tools: [MyTool], activities: [MyService] })`.'],
    });
  }
  const { toolsets, others } = splitToolsets(config.tools);
  const { tools, paramsTransformers } = collectToolEntries(others);
  const container: ContainerInstance = new StandInAwareContainer(`ideact-${randomUUID()}`);
  try {
    const { activities } = collectActivities(config.activities, container);
    const toolsetActivities = toolsets.flatMap((toolset) => Object.keys(toolset.activities));
    checkToolActivities(tools, [...Object.keys(activities), ...toolsetActivities]);
    if (config.provider === undefined && !hasProviderEnvironment(process.env)) {
      // Fail at start, not at the first LLM request: the caller must choose a provider.
      throw new MissingProviderError({ where: 'createAgent() / createContainer()' });
    }

    container.set(IDEACT_CONFIG, Object.freeze({ ...config }));
    container.set(
      TOOLS,
      tools.map((tool) => tool.schema),
    );
    container.set(TOOLSETS, toolsets);
    container.set(ACTIVITIES, activities);
    container.set(PARAMS_TRANSFORMERS, paramsTransformers);
    container.set({ id: PROVIDER, factory: () => config.provider ?? createDefaultProvider() });
    container.set({
      id: ModuleLoader,
      factory: () =>
        new ModuleLoader({
          moduleRoot: config.moduleRoot,
          allowedHosts: config.allowedModuleHosts,
        }),
    });
    container.set({
      id: Toolkit,
      factory: (scope: ContainerInstance) =>
        new Toolkit({
          tools: [...scope.get(TOOLS), ...scope.get(TOOLSETS)],
          loader: scope.get(ModuleLoader),
        }),
    });
    container.set({
      id: Executor,
      factory: (scope: ContainerInstance) => {
        const options = {
          provider: scope.get(PROVIDER),
          tools: [...scope.get(TOOLS), ...scope.get(TOOLSETS)],
          activities: [scope.get(ACTIVITIES)],
          paramsTransformers: scope.get(PARAMS_TRANSFORMERS),
          moduleLoader: scope.get(ModuleLoader),
          concurrency: config.concurrency,
          maxModuleDepth: config.maxModuleDepth,
          handlers: config.handlers,
          maxRepairs: config.maxRepairs,
          model: config.model,
          temperature: config.temperature,
          needsApproval: config.needsApproval,
        };
        // Without a MODULE_RUNNER, agent modules (R-MOD-5) still run as nested agents, so a typed
        // call of an agent Idea returns its output, never its unexecuted Calls.
        return scope.has(MODULE_RUNNER)
          ? new Executor({ ...options, moduleRunner: scope.get(MODULE_RUNNER) })
          : executorWithNestedAgents(options);
      },
    });
  } catch (error) {
    container.reset({ strategy: 'resetServices' });
    throw error;
  }
  return container;
}

/**
 * Releases what a container made by `createContainer()` holds (its services and their instances).
 * Optional: the container is not registered anywhere global, so an unused one is garbage anyway;
 * call it to drop the instances early (e.g. Activity services holding connections).
 */
export function disposeContainer(container: ContainerInstance): void {
  container.reset({ strategy: 'resetServices' });
}
