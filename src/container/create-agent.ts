import type { ContainerInstance } from 'typedi';
import { createContainer, disposeContainer } from './create-container';
import type { IdeactConfig } from './ideact-config';
import {
  ACTOR,
  DISCRIMINATOR,
  GENERATOR,
  IDEACT_CONFIG,
  MODULE_RUNNER,
  PROMPTER,
  PROVIDER,
} from './tokens';
import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { Executor } from '../calls/executor';
import { RequestModuleRunner } from '../calls/module-runner';
import { Toolkit } from '../calls/toolkit';
import { Agent } from '../agent/agent';
import type { AgentConfig, StepModules } from '../agent/agent-options';
import { BasicPrompter } from '../agent/basic-prompter';
import { CallActor } from '../agent/call-actor';
import { FirstOptionDiscriminator } from '../agent/first-option-discriminator';
import { NestedAgentRunner } from '../agent/nested-agent-runner';
import { VesselGenerator } from '../agent/vessel-generator';
import { StateFileStores } from '../store/state-file-store';

/**
 * Creates an Agent from the same configuration as `createContainer` plus agent options: tools,
 * activities and provider are wired by the container; the step modules are the defaults unless
 * `modules` replaces them; module Calls whose Idea offers tools run as nested agents (R-MOD-5).
 */
export function createAgent(config: IdeactConfig & AgentConfig): Agent {
  const container = createContainer(config);
  return agentFromContainer(container, config, () => disposeContainer(container));
}

/**
 * Builds an Agent from a container made by `createContainer` (R-LOOP-2): step modules registered
 * under PROMPTER / GENERATOR / DISCRIMINATOR / ACTOR are used (the defaults are registered where
 * unset), so `container.set(DISCRIMINATOR, new JudgeDiscriminator())` swaps one. The container's
 * `model`, `temperature` and `needsApproval` are the agent's unless `given` sets its own. Call it
 * before anything took the container's Executor: it installs the nested-agent module runner there.
 */
export function agentFromContainer(
  container: ContainerInstance,
  given: AgentConfig = {},
  dispose?: () => void,
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
  // One configuration: the container's model settings and approval rule are the agent's defaults.
  const agentConfig: AgentConfig = { ...given };
  if (agentConfig.model === undefined && config.model !== undefined)
    agentConfig.model = config.model;
  if (agentConfig.temperature === undefined && config.temperature !== undefined) {
    agentConfig.temperature = config.temperature;
  }
  if (agentConfig.needsApproval === undefined && config.needsApproval !== undefined) {
    agentConfig.needsApproval = config.needsApproval;
  }
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
  // The container's Executor factory picks the runner up from MODULE_RUNNER (one wiring, not two).
  container.set(MODULE_RUNNER, runner);
  const executor = container.get(Executor);
  if (executor.moduleRunner !== runner) {
    throw new ContainerConfigurationError({
      setting: 'agentFromContainer(container)',
      problem:
        'the container had already built its Executor, so the nested-agent module runner (R-MOD-5) cannot be installed.',
      solutions: [
        'Call agentFromContainer(container) before anything calls container.get(Executor).',
        'Or build the agent with createAgent(config).',
      ],
    });
  }
  runner.attach(executor);
  return new Agent(
    {
      provider,
      toolkit: container.get(Toolkit),
      executor,
      modules,
      handlers: config.handlers,
      maxRepairs: config.maxRepairs,
      dispose,
      // `stateFile` runs: a one-run FileRunStore per file (older whole-state files migrate on resume).
      stateFiles: new StateFileStores(),
    },
    agentConfig,
  );
}
