import { installToolClassResolver } from '../runtime/tool-class-resolver';
import { checkToolActivities } from './check-tool-activities';
import { collectToolEntries } from './collect-tool-entries';

/**
 * Lets `new Executor({ tools: [MyTool] })` take `@Tool` classes with the checks of `createContainer`
 * (DecoratorErrors, duplicate names, unregistered Activities) and the same params transformers. The
 * runtime layer cannot import this one, so it is installed here when the decorators load. @internal
 */
installToolClassResolver((tools, activityNames) => {
  const collected = collectToolEntries(tools, 'new Executor');
  checkToolActivities(collected.tools, activityNames, 'new Executor');
  return {
    tools: collected.tools.map((tool) => tool.schema),
    paramsTransformers: collected.paramsTransformers,
  };
});
