import type { ResolvedExecutorTools } from '../calls/tool-class-resolver';
import { checkToolActivities } from './check-tool-activities';
import { collectToolEntries } from './collect-tool-entries';

/**
 * What `new Executor({ tools: [MyTool] })` does with `@Tool` classes: the checks of `createContainer`
 * (DecoratorErrors, duplicate names, unregistered Activities) and the same params transformers.
 * `@Tool` installs it in the runtime, which cannot import this layer. @internal
 */
export function resolveExecutorToolClasses(
  tools: readonly unknown[],
  activityNames: readonly string[],
): ResolvedExecutorTools {
  const collected = collectToolEntries(tools, 'new Executor');
  checkToolActivities(collected.tools, activityNames, 'new Executor');
  return {
    tools: collected.tools.map((tool) => tool.schema),
    paramsTransformers: collected.paramsTransformers,
  };
}
