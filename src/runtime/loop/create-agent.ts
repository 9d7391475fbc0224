import type { ContainerInstance } from 'typedi';
import { createContainer } from '../../container/create-container';
import type { IdeactConfig } from '../../container/ideact-config';
import {
  ACTIVITIES,
  ACTOR,
  DISCRIMINATOR,
  GENERATOR,
  IDEACT_CONFIG,
  PARAMS_TRANSFORMERS,
  PROMPTER,
  PROVIDER,
  TOOLS,
} from '../../container/tokens';
import { Executor } from '../executor';
import { ModuleLoader } from '../module-loader';
import { RequestModuleRunner } from '../module-runner';
import { Toolkit } from '../toolkit';
import { Agent } from './agent';
import type { AgentConfig, StepModules } from './agent-options';
import { BasicPrompter } from './basic-prompter';
import { CallActor } from './call-actor';
import { FirstOptionDiscriminator } from './first-option-discriminator';
import { NestedAgentRunner } from './nested-agent-runner';
import { VesselGenerator } from './vessel-generator';

/**
 * Creates an Agent from the same configuration as `createContainer` plus agent options: tools,
 * activities and provider are wired by the container; the step modules are the defaults unless
 * `modules` replaces them; module Calls whose Idea offers tools run as nested agents (R-MOD-5).
 */
export function createAgent(config: IdeactConfig & AgentConfig): Agent {
  return agentFromContainer(createContainer(config), config);
}

/**
 * Builds an Agent from a container made by `createContainer` (R-LOOP-2): step modules registered
 * under PROMPTER / GENERATOR / DISCRIMINATOR / ACTOR are used (the defaults are registered where
 * unset), so `container.set(DISCRIMINATOR, new JudgeDiscriminator())` swaps one. Call it before
 * anything took the container's Executor: it installs the nested-agent module runner there.
 */
export function agentFromContainer(
  container: ContainerInstance,
  agentConfig: AgentConfig = {},
): Agent {
  const defaults: Array<[typeof PROMPTER, () => StepModules[keyof StepModules]]> = [
    [PROMPTER, () => new BasicPrompter()],
    [GENERATOR, () => new VesselGenerator()],
    [DISCRIMINATOR, () => new FirstOptionDiscriminator()],
    [ACTOR, () => new CallActor()],
  ];
  for (const [token, factory] of defaults) {
    if (!container.has(token)) container.set({ id: token, factory });
  }
  const config = container.get(IDEACT_CONFIG);
  const modules: StepModules = {
    prompter: agentConfig.modules?.prompter ?? container.get(PROMPTER),
    generator: agentConfig.modules?.generator ?? container.get(GENERATOR),
    discriminator: agentConfig.modules?.discriminator ?? container.get(DISCRIMINATOR),
    actor: agentConfig.modules?.actor ?? container.get(ACTOR),
  };
  const provider = container.get(PROVIDER);
  const runner = new NestedAgentRunner({
    provider,
    fallback: new RequestModuleRunner({
      provider,
      handlers: config.handlers,
      maxRepairs: config.maxRepairs,
    }),
    config: agentConfig,
    modules,
    handlers: config.handlers,
    maxRepairs: config.maxRepairs,
  });
  container.set({
    id: Executor,
    factory: (scope: ContainerInstance) => {
      const executor = new Executor({
        provider,
        tools: scope.get(TOOLS),
        activities: scope.get(ACTIVITIES),
        paramsTransformers: scope.get(PARAMS_TRANSFORMERS),
        moduleLoader: scope.get(ModuleLoader),
        concurrency: config.concurrency,
        maxModuleDepth: config.maxModuleDepth,
        handlers: config.handlers,
        maxRepairs: config.maxRepairs,
        moduleRunner: runner,
      });
      runner.attach(executor);
      return executor;
    },
  });
  return new Agent(
    {
      provider,
      toolkit: container.get(Toolkit),
      executor: container.get(Executor),
      modules,
      handlers: config.handlers,
      maxRepairs: config.maxRepairs,
    },
    agentConfig,
  );
}
