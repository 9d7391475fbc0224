import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { checkToolMetaNames } from '../protocol/tool-meta-names';
import { latestToolDefinitions } from '../protocol/tool-override';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ParamsTransformer } from '../calls/activity';
import type { ToolClass } from './class-types';
import { getMetadataStorage } from './metadata-storage';
import { createParamsTransformer } from './params-transformer';
import { isToolClass, toolSchema } from './tool-schema-builder';

/** One configured tool: its schema, where it came from, and its class when it was declared by one. */
export interface CollectedTool {
  name: string;
  schema: ToolSchema;
  /** `tools[2] (class WeatherReport)` — used in error messages. */
  source: string;
  type?: ToolClass;
}

/** Tools of a container (or executor), with the params transformers of class-declared ones. @internal */
export interface CollectedTools {
  tools: CollectedTool[];
  paramsTransformers: Record<string, ParamsTransformer>;
}

/**
 * Turns `tools` (decorated classes and ToolSchemas) into schemas and params transformers; rejects
 * non-tools with a ContainerConfigurationError and a Tool writing `_module`/`_delegate` (or
 * `_imports`/`_scopes`) differently with an InvalidIdeaError. A name given twice keeps its later
 * definition (R-TOOL-5; before, a ContainerConfigurationError). One check for `createContainer` and
 * `new Executor` (`api` names the one called, for messages). @internal
 */
export function collectToolEntries(
  entries: readonly unknown[],
  api = 'createContainer',
): CollectedTools {
  if (!Array.isArray(entries)) {
    throw new ContainerConfigurationError({
      api,
      setting: 'tools',
      problem: `expected an array of @Tool classes or ToolSchemas, got ${typeof entries}.`,
      solutions: ['Pass `tools: [WeatherReport, otherToolSchema]`.'],
    });
  }
  const collected = entries.map((entry, index) => {
    const one = collectOne(entry, index, api);
    checkToolMetaNames(one.schema, { source: one.source, jsonPath: '' });
    return one;
  });
  // R-TOOL-5: the later definition of a name wins; the earlier ones are dropped.
  const tools = latestToolDefinitions(collected, (tool) => tool.name);
  const paramsTransformers: Record<string, ParamsTransformer> = {};
  for (const tool of tools) {
    if (tool.type) paramsTransformers[tool.name] = createParamsTransformer(tool.type, tool.name);
  }
  return { tools, paramsTransformers };
}

function collectOne(entry: unknown, index: number, api: string): CollectedTool {
  if (typeof entry === 'function') {
    const source = `tools[${index}] (class ${entry.name || 'anonymous'})`;
    if (!isToolClass(entry)) {
      const storage = getMetadataStorage();
      const isService = storage.serviceActivitiesOf(entry as ToolClass).length > 0;
      throw new ContainerConfigurationError({
        api,
        setting: 'tools',
        problem: `${source} is not decorated with @Tool().`,
        solutions: [
          ...(isService ? [`${entry.name} has @Activity methods: move it to \`activities\`.`] : []),
          `Add @Tool() above \`class ${entry.name}\`.`,
          'If getMetadataStorage().reset() ran after the class was declared, declare it after the reset.',
        ],
      });
    }
    const schema = toolSchema(entry);
    return { name: constName(schema) as string, schema, source, type: entry };
  }
  const source = `tools[${index}] (ToolSchema)`;
  const name =
    typeof entry === 'object' && entry !== null ? constName(entry as ToolSchema) : undefined;
  if (name === undefined) {
    throw new ContainerConfigurationError({
      api,
      setting: 'tools',
      problem: `${source} is neither a @Tool class nor a ToolSchema with \`properties._tool.const\`.`,
      solutions: [
        "Pass a schema like `{ type: 'object', properties: { _tool: { const: 'name' }, … } }`.",
        'Pass a class decorated with @Tool().',
      ],
    });
  }
  return { name, schema: entry as ToolSchema, source };
}

function constName(schema: ToolSchema): string | undefined {
  const name: unknown = (schema.properties as Record<string, { const?: unknown }> | undefined)
    ?._tool?.const;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
