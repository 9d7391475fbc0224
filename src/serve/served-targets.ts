import { ContainerInstance } from 'typedi';
import { agentFromContainer } from '../container/create-agent';
import { ACTIVITIES } from '../container/tokens';
import { RunHandlerConfigError } from '../errors/run-handler-config.error';
import type { ValidationIssue } from '../errors/validation-issue';
import type { Provider } from '../llm/provider';
import type { Message } from '../protocol/message';
import { Agent } from '../agent/agent';
import type { RunOptions } from '../agent/agent-options';
import type { RunStore } from '../runs/run-store';
import { ideaEntries, type SkippedIdea } from '../dev/playground-catalog';
import { choosePlaygroundProvider } from '../dev/playground-setup';

/**
 * What a run handler serves (issue 32 item 1): named targets a client starts runs of. An agent (or a
 * container's agent) is the target `agent` — its runs take a `task` and an optional `input` (an input
 * message); each Idea file of an ideas folder is a target by its name (an agent Idea runs as an
 * agent, a plain Idea as one module Call), whose `input` is checked against the Idea's input schema
 * first. Every run goes through the agent loop, so every Call through the call pipeline.
 */

/** What `createRunHandler` serves: an agent, a container, or Ideas (with a store, a provider). */
export type RunHandlerSource =
  | Agent
  | ContainerInstance
  | {
      /** A folder of Idea files: each is a target by its file name (`POST /runs { idea }`). */
      ideasDir?: string;
      /** An agent served as target `agent` (`POST /runs { agent: 'agent' }`, the default). */
      agent?: Agent;
      /** A container whose agent is served as target `agent`; its Activities run the Ideas' Tools. */
      container?: ContainerInstance;
      /** The model of the Ideas (default: OpenAI when configured, else the offline provider). */
      provider?: Provider;
      /** Where runs and their events are kept (default `new FileRunStore()`). */
      store?: RunStore;
    };

/** One target: how its runs start (after the input was checked). */
export interface ServedTarget {
  name: string;
  /** `agent`: a run of the agent loop; `call`: a run of one module Call (a plain Idea). */
  mode: 'agent' | 'call';
  agent: Agent;
  /** The input's issues, or the run's start options (context, output schema, task). */
  prepare(
    input: unknown,
    task: string | undefined,
  ): Promise<{ issues: ValidationIssue[]; start?: RunOptions; call?: Record<string, unknown> }>;
}

/** The name of the agent target (an agent or a container given as the source). */
export const AGENT_TARGET = 'agent';

/** The targets of `source`, the agents to dispose of on close, and the Idea files skipped. */
export async function servedTargets(
  source: RunHandlerSource,
  env: Record<string, string | undefined> = process.env,
): Promise<{
  targets: Map<string, ServedTarget>;
  owned: Agent[];
  skipped: SkippedIdea[];
  store?: RunStore;
}> {
  const parts =
    source instanceof Agent
      ? { agent: source }
      : source instanceof ContainerInstance
        ? { container: source }
        : source;
  if (typeof parts !== 'object' || parts === null) {
    throw new RunHandlerConfigError({
      setting: 'source',
      reason: 'give an Agent, a container, or { ideasDir, agent, container, provider, store }',
    });
  }
  const targets = new Map<string, ServedTarget>();
  const owned: Agent[] = [];
  const agent =
    parts.agent ??
    (parts.container === undefined ? undefined : agentFromContainer(parts.container));
  if (agent !== undefined) targets.set(AGENT_TARGET, agentTarget(agent));
  let skipped: SkippedIdea[] = [];
  if (parts.ideasDir !== undefined) {
    const activities = parts.container === undefined ? {} : parts.container.get(ACTIVITIES);
    const provider = parts.provider ?? choosePlaygroundProvider(env);
    const made = await ideaEntries(parts.ideasDir, provider, activities);
    owned.push(...made.agents);
    skipped = made.skipped;
    for (const entry of made.entries) {
      // Only the Idea files themselves: the Tools their agents offer run inside those agents' runs.
      if (entry.summary.source !== 'idea' || entry.summary.file === undefined) continue;
      if (targets.has(entry.summary.name)) continue;
      targets.set(entry.summary.name, {
        name: entry.summary.name,
        mode: entry.mode,
        agent: entry.agent,
        async prepare(input, task) {
          const { issues, start } = await entry.prepare(input ?? {});
          if (issues.length > 0) return { issues };
          if (entry.mode === 'call') {
            return {
              issues,
              call: { ...(input as Record<string, unknown>), _tool: entry.summary.name },
            };
          }
          return { issues, start: { ...start, ...(task === undefined ? {} : { task }) } };
        },
      });
    }
  }
  if (targets.size === 0) {
    throw new RunHandlerConfigError({
      setting: 'source',
      reason: `it serves nothing (${parts.ideasDir === undefined ? 'no agent, container or ideasDir' : `no Idea file in ${parts.ideasDir}`})`,
    });
  }
  return { targets, owned, skipped, ...(parts.store === undefined ? {} : { store: parts.store }) };
}

/** An agent as a target: `task` is the user message, `input` (any JSON) an input message. */
function agentTarget(agent: Agent): ServedTarget {
  return {
    name: AGENT_TARGET,
    mode: 'agent',
    agent,
    async prepare(input, task) {
      const context: Message[] = input === undefined ? [] : [{ type: 'input', input }];
      return {
        issues: [],
        start: {
          ...(context.length === 0 ? {} : { context }),
          ...(task === undefined ? {} : { task }),
        },
      };
    },
  };
}
