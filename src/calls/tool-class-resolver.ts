import { ContainerConfigurationError } from '../errors/container-configuration.error';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ParamsTransformer } from './activity';

/** A `@Tool` class as `new Executor({ tools })` accepts it (the decorators layer reads its metadata). */
export type ExecutorToolClass = abstract new (...args: never[]) => object;

/** The tools of an executor after its `@Tool` classes became schemas, with their params transformers. */
export interface ResolvedExecutorTools {
  tools: ToolSchema[];
  paramsTransformers: Record<string, ParamsTransformer>;
}

/**
 * Turns the `tools` given to `new Executor` (classes and schemas) into schemas and params transformers,
 * with the checks of `createContainer`. The runtime cannot import the decorators layer, so `@Tool`
 * installs it when its module loads (before any @Tool class can exist).
 */
export type ToolClassResolver = (
  tools: readonly unknown[],
  activityNames: readonly string[],
) => ResolvedExecutorTools;

let installed: ToolClassResolver | undefined;

/** Installs the resolver of `@Tool` classes; called once by the decorators layer. @internal */
export function installToolClassResolver(resolver: ToolClassResolver): void {
  installed = resolver;
}

/**
 * Resolves `tools` when one of them is a class: the same schemas, DecoratorErrors, duplicate-name
 * and Activity checks and params transformers as through `createContainer`. @internal
 */
export function resolveExecutorTools(
  tools: readonly unknown[],
  activityNames: readonly string[],
): ResolvedExecutorTools | undefined {
  if (!Array.isArray(tools) || !tools.some((tool) => typeof tool === 'function')) return undefined;
  if (installed === undefined) {
    // No @Tool decorator ever ran in this process, so no class here can be a tool.
    const index = tools.findIndex((tool) => typeof tool === 'function');
    const name = (tools[index] as { name?: string }).name || 'anonymous';
    throw new ContainerConfigurationError({
      api: 'new Executor',
      setting: 'tools',
      problem: `tools[${index}] (class ${name}) is not decorated with @Tool().`,
      solutions: [
        `Add @Tool() (from 'ideact') above \`class ${name}\`.`,
        'Pass a ToolSchema instead of a class.',
      ],
    });
  }
  return installed(tools, activityNames);
}
