import { DecoratorError } from '../errors/decorator.error';
import type { JSONSchema } from '../protocol/json-schema';
import { vocabularyName } from '../protocol/protocol-vocabulary';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ToolClass } from './class-types';
import { classToJsonSchema } from './class-schema';
import { getMetadataStorage } from './metadata-storage';
import { assertToolName } from './tool-name';

/**
 * The JSON Schema the LLM sees for a `@Tool` class (DESIGN §2): `_tool` const, the params from the
 * class-validator decorators (required unless `@IsOptional()`), then the meta-fields the other
 * decorators recorded. Only `_tool` and the required params are listed in `required`; which meta-fields
 * the LLM fills is decided by the call schema.
 */
export function toolSchema(type: ToolClass): ToolSchema {
  const storage = getMetadataStorage();
  const tool = typeof type === 'function' ? storage.findOwn(storage.tools, type) : undefined;
  if (tool === undefined) throw notATool(type);
  const name = toolNameOf(type);
  const usage = { decorator: '@Tool', target: type.name };
  const params = classToJsonSchema(type, usage);
  const paramProperties = params.properties ?? {};
  const reserved = Object.keys(paramProperties).find((key) => key.startsWith('_'));
  if (reserved !== undefined) {
    throw new DecoratorError({
      ...usage,
      problem: `the param "${reserved}" starts with "_", which marks meta-fields (_tool, _output, …).`,
      solutions: [`Rename ${type.name}.${reserved} without the leading underscore.`],
    });
  }

  const properties: Record<string, JSONSchema> & { _tool: JSONSchema } = {
    _tool: { const: name },
    ...paramProperties,
  };
  const imports = storage.findInherited(storage.imports, type);
  if (imports) {
    // `@Imports` writes `_imports`, `@Scopes` writes `_scopes` (R-SCOPE-1): the same rule, two names.
    properties[vocabularyName('scopesField', imports.vocabulary)] =
      imports.mode === 'static'
        ? { const: [...imports.kinds] }
        : { type: 'array', items: { enum: [...imports.kinds] } };
  }
  const outputPath = storage.findInherited(storage.outputPaths, type);
  if (outputPath) {
    properties._outputPath =
      outputPath.mode === 'fixed'
        ? { const: outputPath.path }
        : outputPath.paths
          ? { enum: [...outputPath.paths] }
          : { type: 'string' };
    const method = outputPath.method;
    if (method !== undefined) {
      properties._outputMethod =
        method.mode === 'fixed'
          ? { const: method.method }
          : {
              type: 'string',
              enum: [...method.methods],
              ...(method.default === undefined ? {} : { default: method.default }),
            };
    }
  }
  const output = storage.findInherited(storage.outputs, type);
  if (output) {
    properties._output =
      output.output.kind === 'class'
        ? classToJsonSchema(output.output.type, { decorator: '@Output', target: type.name })
        : structuredClone(output.output.schema);
  }
  const activity = storage.findInherited(storage.toolActivities, type);
  if (activity) properties._activity = { const: activity.name ?? name };
  const module = storage.findInherited(storage.modules, type);
  if (module) {
    // `@Module` writes `_module`, `@Delegate` writes `_delegate` (R-DEL-1).
    properties[vocabularyName('delegateField', module.vocabulary)] = { const: module.reference };
    if (module.resolution === 'upfront') properties._resolution = { const: 'upfront' };
  }

  return {
    type: 'object',
    ...(tool.description === undefined ? {} : { description: tool.description }),
    properties,
    required: ['_tool', ...(params.required ?? [])],
    ...(tool.needsApproval === true ? { needsApproval: true } : {}),
  };
}

/**
 * The `_tool` name of a `@Tool` class: `@Tool({ name })`, else its own `static toolName`, else the
 * camelCased class name. Throws when `@Tool({ name })` and `static toolName` disagree.
 */
export function toolNameOf(type: ToolClass): string {
  const storage = getMetadataStorage();
  const tool = storage.findOwn(storage.tools, type);
  if (tool === undefined) throw notATool(type);
  const declared = Object.prototype.hasOwnProperty.call(type, 'toolName')
    ? type.toolName
    : undefined;
  if (declared !== undefined) assertToolName(declared, `${type.name}.toolName`);
  if (tool.name !== undefined && declared !== undefined && tool.name !== declared) {
    throw new DecoratorError({
      decorator: '@Tool',
      target: type.name,
      problem: `@Tool({ name: '${tool.name}' }) disagrees with static toolName = '${declared}'.`,
      solutions: ['Use the same name in both places.', 'Drop one of them (either is enough).'],
    });
  }
  return tool.name ?? declared ?? camelCase(type.name);
}

/** True when `value` is a class decorated with `@Tool()`. */
export function isToolClass(value: unknown): value is ToolClass {
  if (typeof value !== 'function') return false;
  const storage = getMetadataStorage();
  return storage.findOwn(storage.tools, value as ToolClass) !== undefined;
}

/** `WeatherReport` → `weatherReport`, `HTTPFetch` → `httpFetch`, `URL` → `url`. @internal */
export function camelCase(name: string): string {
  const leadingCapitals = /^[A-Z]+/.exec(name)?.[0] ?? '';
  if (leadingCapitals.length === 0) return name;
  if (leadingCapitals.length === 1 || leadingCapitals.length === name.length) {
    return leadingCapitals.toLowerCase() + name.slice(leadingCapitals.length);
  }
  // `HTTPFetch`: the last capital starts the next word.
  const head = leadingCapitals.slice(0, -1);
  return head.toLowerCase() + name.slice(head.length);
}

function notATool(type: unknown): DecoratorError {
  const name = typeof type === 'function' ? type.name || '(anonymous class)' : String(type);
  const storage = getMetadataStorage();
  const found = typeof type === 'function' ? storage.classDecoratorsOf(type as ToolClass) : [];
  return new DecoratorError({
    decorator: '@Tool',
    target: name,
    problem:
      typeof type !== 'function'
        ? 'expected a class decorated with @Tool().'
        : `the class is not decorated with @Tool()${found.length > 0 ? ` (it has ${found.join(', ')})` : ''}.`,
    solutions: [
      `Add @Tool() above \`class ${name}\`.`,
      'If getMetadataStorage().reset() ran after the class was declared, declare the class after the reset.',
      'Pass a plain ToolSchema object instead of a class.',
    ],
  });
}
