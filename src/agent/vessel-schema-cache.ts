import type { JSONSchema } from '../protocol/json-schema';
import { compileVesselValidator, type JsonValidator } from '../protocol/json-validation';
import type { ToolSchema } from '../protocol/tool-schema';
import { toolName } from '../protocol/read-tool';
import { buildVesselSchema } from '../protocol/vessel-schema';
import type { AgentRuntime } from './agent-runtime';

interface Entry {
  tools: readonly ToolSchema[];
  output: JSONSchema | undefined;
  instances: readonly string[] | undefined;
  activities: ReadonlySet<string> | undefined;
  schema: JSONSchema;
  /** The schema's validator, compiled on first use (the schema is built here and never changed). */
  validator?: JsonValidator;
  /** What `vesselSchemaFor` answers for this entry (one object for every turn that reuses it). */
  answer: VesselSchema;
  /** The output schema's JSON text when built, for a shared entry (an output edited in place between runs is another). */
  outputText?: string;
}

/** A turn's Vessel schema: its Tools, the schema, and its validator (compiled on first use). */
export interface VesselSchema {
  /** Shared by every turn that reuses the schema: read it, do not change it. */
  tools: readonly ToolSchema[];
  /** The names of `tools` (what `parseVesselOf` checks a Call's `_tool` against). */
  toolNames: ReadonlySet<string>;
  schema: JSONSchema;
  validator: () => JsonValidator;
}

const entries = new WeakMap<object, Entry>();

/**
 * Entries shared by the runs of one agent (issue 28: a run of one turn paid for a new schema and its
 * validator): keyed by the Toolkit's list (one array while the Tools do not change), then by the
 * output schema object. Only runs without instances and without custom message handlers share one
 * (a handler may change the schema it is given).
 */
interface SharedEntries {
  withoutOutput?: Entry;
  byOutput: WeakMap<object, Entry>;
}
const shared = new WeakMap<readonly ToolSchema[], SharedEntries>();

/**
 * The Vessel schema of this turn (R-LOOP-2): the Toolkit's tools, the run's output schema and
 * instances. Reused while those are the same objects, so the Prompter and the Generator share one
 * schema per run and the validator compiles it once instead of once per turn; `validator()` checks
 * solutions against it without re-reading the schema's text every turn.
 * @internal
 */
export function vesselSchemaFor(agent: AgentRuntime): VesselSchema | Promise<VesselSchema> {
  // The Toolkit's list without a wait when it knows it did not change (the hot path, issue 28):
  // then the answer is no promise either.
  const current = agent.toolkit.current?.();
  if (current !== undefined) return schemaOf(agent, current, current);
  return agent.toolkit.list().then((tools) => schemaOf(agent, tools, undefined));
}

/** The Vessel schema for these Tools (`current`: the Toolkit's own unchanged list, if known). */
function schemaOf(
  agent: AgentRuntime,
  tools: readonly ToolSchema[],
  current: readonly ToolSchema[] | undefined,
): VesselSchema {
  const { output, instances } = agent.state;
  const activities = agent.executor.activityNames;
  const cached = entries.get(agent.state);
  if (cached !== undefined && holds(cached, tools, output, instances, activities)) {
    return cached.answer;
  }
  const sharable =
    current !== undefined &&
    instances === undefined &&
    (output === undefined || (typeof output === 'object' && output !== null)) &&
    (agent.settings.handlers ?? []).length === 0;
  const slot = sharable ? sharedSlot(current, output) : undefined;
  const outputText = slot === undefined ? undefined : JSON.stringify(output);
  const found = slot?.get();
  if (
    found !== undefined &&
    found.outputText === outputText &&
    holds(found, tools, output, instances, activities)
  ) {
    entries.set(agent.state, found);
    return found.answer;
  }
  const copy = [...tools];
  const schema = buildVesselSchema(copy, output, { activities, instances });
  const answer: VesselSchema = {
    tools: copy,
    toolNames: new Set(copy.map(toolName)),
    schema,
    validator: () => validatorOf(entry),
  };
  const entry: Entry = { tools: copy, output, instances, activities, schema, answer };
  entries.set(agent.state, entry);
  if (slot !== undefined) {
    entry.outputText = outputText;
    slot.set(entry);
  }
  return entry.answer;
}

/** True when `entry` was built from these Tools, output, instances and Activities. */
function holds(
  entry: Entry,
  tools: readonly ToolSchema[],
  output: JSONSchema | undefined,
  instances: readonly string[] | undefined,
  activities: ReadonlySet<string> | undefined,
): boolean {
  return (
    entry.output === output &&
    entry.instances === instances &&
    entry.activities === activities &&
    entry.tools.length === tools.length &&
    entry.tools.every((tool, index) => tool === tools[index])
  );
}

/** The shared entry's place for this Toolkit list and output schema. */
function sharedSlot(
  tools: readonly ToolSchema[],
  output: JSONSchema | undefined,
): { get(): Entry | undefined; set(entry: Entry): void } {
  let byTools = shared.get(tools);
  if (byTools === undefined) {
    byTools = { byOutput: new WeakMap() };
    shared.set(tools, byTools);
  }
  const entries = byTools;
  if (output === undefined) {
    return {
      get: () => entries.withoutOutput,
      set: (entry) => {
        entries.withoutOutput = entry;
      },
    };
  }
  const key = output as object;
  return {
    get: () => entries.byOutput.get(key),
    set: (entry) => entries.byOutput.set(key, entry),
  };
}

function validatorOf(entry: Entry): JsonValidator {
  entry.validator ??= compileVesselValidator(entry.schema);
  return entry.validator;
}
