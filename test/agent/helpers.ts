import type { ActivityFunction } from '../../src/calls/activity';
import { Executor } from '../../src/calls/executor';
import { Toolkit } from '../../src/calls/toolkit';
import { Agent } from '../../src/agent/agent';
import { StateFileStores } from '../../src/store/state-file-store';
import type { AgentConfig } from '../../src/agent/agent-options';
import {
  ScriptedProvider,
  type ScriptEntry,
  type ScriptFunction,
} from '../../src/llm/scripted/scripted-provider';
import type { ToolSchema } from '../../src/protocol/tool-schema';
import type { Call } from '../../src/protocol/call';

/** A tool with an explicit Activity (same-name convention): `weather({ city })`. */
export const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

/** A Vessel solution. */
export function vessel(calls: Call[], output: unknown = null): { calls: Call[]; output: unknown } {
  return { calls, output };
}

/** An agent wired by hand (no container) around a ScriptedProvider. */
export function scriptedAgent(
  script: readonly ScriptEntry[] | ScriptFunction,
  options: {
    tools?: ToolSchema[];
    activities?: Record<string, ActivityFunction>;
    config?: AgentConfig;
  } = {},
): { agent: Agent; provider: ScriptedProvider; executor: Executor } {
  const provider = new ScriptedProvider(script);
  const tools = options.tools ?? [weatherTool];
  const executor = new Executor({
    provider,
    tools,
    activities: [
      options.activities ?? {
        weather: (params) => ({ city: params.city, tempC: 21 }),
      },
    ],
  });
  const agent = new Agent(
    { provider, toolkit: new Toolkit({ tools }), executor, stateFiles: new StateFileStores() },
    options.config,
  );
  return { agent, provider, executor };
}

/** All text the provider received in request `index`. */
export function promptText(provider: ScriptedProvider, index: number): string {
  return (provider.requests[index]?.messages ?? []).map((message) => message.content).join('\n');
}
