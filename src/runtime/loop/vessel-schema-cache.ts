import type { JSONSchema } from '../../protocol/json-schema';
import { compileValidator, type JsonValidator } from '../../protocol/json-validation';
import type { ToolSchema } from '../../protocol/tool-schema';
import { buildVesselSchema } from '../../protocol/vessel-schema';
import type { AgentRuntime } from './agent-runtime';

interface Entry {
  tools: readonly ToolSchema[];
  output: JSONSchema | undefined;
  instances: readonly string[] | undefined;
  activities: ReadonlySet<string> | undefined;
  schema: JSONSchema;
  /** The schema's validator, compiled on first use (the schema is built here and never changed). */
  validator?: JsonValidator;
}

const entries = new WeakMap<object, Entry>();

/**
 * The Vessel schema of this turn (R-LOOP-2): the Toolkit's tools, the run's output schema and
 * instances. Reused while those are the same objects, so the Prompter and the Generator share one
 * schema per run and the validator compiles it once instead of once per turn; `validator()` checks
 * solutions against it without re-reading the schema's text every turn.
 * @internal
 */
export async function vesselSchemaFor(agent: AgentRuntime): Promise<{
  tools: ToolSchema[];
  schema: JSONSchema;
  validator: () => JsonValidator;
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
    return { tools, schema: cached.schema, validator: () => validatorOf(cached) };
  }
  const schema = buildVesselSchema(tools, output, { activities, instances });
  const entry: Entry = { tools, output, instances, activities, schema };
  entries.set(agent.state, entry);
  return { tools, schema, validator: () => validatorOf(entry) };
}

function validatorOf(entry: Entry): JsonValidator {
  entry.validator ??= compileValidator(entry.schema);
  return entry.validator;
}
