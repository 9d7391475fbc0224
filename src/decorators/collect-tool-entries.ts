import { ContainerConfigurationError } from '../errors/container-configuration.error';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ParamsTransformer } from '../runtime/activity';
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
 * non-tools and duplicate names with a ContainerConfigurationError. One check for `createContainer`
 * and `new Executor` (`api` names the one called, for messages). @internal
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
  const tools: CollectedTool[] = [];
  const paramsTransformers: Record<string, ParamsTransformer> = {};
  entries.forEach((entry, index) => {
    const collected = collectOne(entry, index, api);
    const clash = tools.find((tool) => tool.name === collected.name);
    if (clash) {
      throw new ContainerConfigurationError({
        api,
        setting: 'tools',
        problem: `two tools are named "${collected.name}": ${clash.source} and ${collected.source}.`,
        solutions: [
          "Rename one of them: `@Tool({ name: 'otherName' })` or its `_tool` const.",
          'Remove the duplicate from `tools` if it is the same tool listed twice.',
        ],
      });
    }
    tools.push(collected);
    if (collected.type) {
      paramsTransformers[collected.name] = createParamsTransformer(collected.type, collected.name);
    }
  });
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
