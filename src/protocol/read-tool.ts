import { InvalidSchemaError } from '../errors/invalid-schema.error';
import type { JSONSchema } from './json-schema';
import type { ScopesField } from './protocol-vocabulary';
import { readOutputMethod } from './read-output-method';
import { withRootDefinitions } from './root-definitions';
import type { ToolInfo, ToolImports, ToolOutputPath } from './tool-info';
import { checkToolMetaNames, delegateFieldOf, scopesFieldOf } from './tool-meta-names';
import type { ToolSchema } from './tool-schema';

/**
 * Reads a Tool schema's name, params and meta-fields (DESIGN.md §2) into a {@link ToolInfo}, in
 * either vocabulary (`_module` or `_delegate`, `_imports` or `_scopes`). Throws `InvalidSchemaError`
 * when the schema has no string `_tool` const, `InvalidIdeaError` when it writes both names of one
 * field with different values (R-DEL-2, R-SCOPE-2).
 */
export function readTool(tool: ToolSchema): ToolInfo {
  const name = toolName(tool);
  checkToolMetaNames(tool, { source: `tool "${name}"`, jsonPath: '' });
  const properties = tool.properties ?? {};
  const scopesField = scopesFieldOf(tool);
  const moduleField = delegateFieldOf(tool);
  const paramProperties: Record<string, JSONSchema> = {};
  for (const [key, schema] of Object.entries(properties)) {
    if (!key.startsWith('_')) paramProperties[key] = schema;
  }
  const params: JSONSchema = { type: 'object', properties: paramProperties };
  const required = (tool.required ?? []).filter((key) => !key.startsWith('_'));
  if (required.length > 0) params.required = required;
  if (tool.additionalProperties !== undefined)
    params.additionalProperties = tool.additionalProperties;
  if (tool.$defs !== undefined) params.$defs = tool.$defs;
  if (tool.definitions !== undefined) params.definitions = tool.definitions;

  const info: ToolInfo = {
    name,
    params,
    resolution: constOf(properties._resolution) === 'upfront' ? 'upfront' : 'execution',
    imports: readImports(properties[scopesField], scopesField),
    outputPath: readOutputPath(properties._outputPath),
    outputMethod: readOutputMethod(properties._outputMethod, name),
  };
  if (typeof tool.description === 'string') info.description = tool.description;
  const output = properties._output;
  // `_output` may reference the Tool's root `$defs`: standing alone it keeps them.
  if (output !== undefined) {
    info.output =
      typeof output === 'object' && output !== null ? withRootDefinitions(output, tool) : output;
  }
  const activity = constOf(properties._activity);
  if (typeof activity === 'string') info.activity = activity;
  const module = constOf(properties[moduleField]);
  if (typeof module === 'string') {
    info.module = module;
    info.moduleField = moduleField;
  }
  return info;
}

/** The `_tool` const of a Tool schema; throws `InvalidSchemaError` when missing. */
export function toolName(tool: ToolSchema): string {
  const name = constOf(tool?.properties?._tool);
  if (typeof name !== 'string' || name === '') {
    throw new InvalidSchemaError({
      message:
        `Tool schema has no "_tool" name (properties._tool.const): ${shortJson(tool)}. ` +
        'Add "_tool": { "const": "<name>" } to its properties.',
    });
  }
  return name;
}

/**
 * R-TOOL-2: the Activity that runs `tool` — an explicit non-empty `_activity` const wins; else an
 * Activity registered under the Tool's own name; else `''` (latent: the LLM produces the output).
 */
export function resolveActivity(tool: ToolSchema, registered: ReadonlySet<string>): string {
  const activity = constOf(tool.properties?._activity);
  // An explicit `_activity` wins, including `''`: the designer declared the Tool latent (DESIGN §2).
  if (typeof activity === 'string') return activity;
  const name = toolName(tool);
  return registered.has(name) ? name : '';
}

/** The `const` of a property schema (or undefined). @internal */
export function constOf(schema: JSONSchema | undefined): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  return schema.const;
}

function readImports(schema: JSONSchema | undefined, field: ScopesField): ToolImports {
  if (schema === undefined) return { mode: 'none' };
  if (Array.isArray(schema.const))
    return { mode: 'static', kinds: schema.const.map(String), field };
  const items = Array.isArray(schema.items) ? undefined : schema.items;
  const kinds = Array.isArray(items?.enum) ? items.enum.map(String) : [];
  return { mode: 'dynamic', kinds, field };
}

function readOutputPath(schema: JSONSchema | undefined): ToolOutputPath {
  if (schema === undefined) return { mode: 'none' };
  if (typeof schema.const === 'string') return { mode: 'fixed', path: schema.const };
  if (Array.isArray(schema.enum)) return { mode: 'choice', paths: schema.enum.map(String) };
  return { mode: 'choice' };
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
