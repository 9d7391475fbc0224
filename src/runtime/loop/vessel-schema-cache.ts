import type { JSONSchema } from '../../protocol/json-schema';
import type { ToolSchema } from '../../protocol/tool-schema';
import { buildVesselSchema } from '../../protocol/vessel-schema';
import type { AgentRuntime } from './agent-runtime';

interface Entry {
  tools: readonly ToolSchema[];
  output: JSONSchema | undefined;
  instances: readonly string[] | undefined;
  activities: ReadonlySet<string> | undefined;
  schema: JSONSchema;
}

const entries = new WeakMap<object, Entry>();

/**
 * The Vessel schema of this turn (R-LOOP-2): the Toolkit's tools, the run's output schema and
 * instances. Reused while those are the same objects, so the Prompter and the Generator share one
 * schema per run and the validator compiles it once instead of once per turn.
 * @internal
 */
export async function vesselSchemaFor(agent: AgentRuntime): Promise<{
  tools: ToolSchema[];
  schema: JSONSchema;
}> {
  const tools = await agent.toolkit.list();
  const { output, instances } = agent.state;
  const activities = agent.executor.activityNames;
  const cached = entries.get(agent.state);
  if (
    cached !== undefined &&
    cached.output === output &&
    cached.instances === instances &&
    cached.activities === activities &&
    cached.tools.length === tools.length &&
    cached.tools.every((tool, index) => tool === tools[index])
  ) {
    return { tools, schema: cached.schema };
  }
  const schema = buildVesselSchema(tools, output, { activities, instances });
  entries.set(agent.state, { tools, output, instances, activities, schema });
  return { tools, schema };
}
