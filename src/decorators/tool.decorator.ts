import { lazyModule } from '../internal/lazy-module';
import { installToolClassResolver } from '../calls/tool-class-resolver';
import { decoratedClass, registerOnce } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';
import { assertToolName } from './tool-name';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded with the first Executor given a class */
const executorToolClasses = lazyModule(
  () => require('./executor-tool-classes') as typeof import('./executor-tool-classes'),
);
/* eslint-enable @typescript-eslint/no-require-imports */

// Any @Tool class means this module ran: from then on `new Executor({ tools })` accepts such classes
// (the runtime cannot import the decorators layer, so this layer hands it the resolver).
installToolClassResolver((tools, activityNames) =>
  executorToolClasses().resolveExecutorToolClasses(tools, activityNames),
);

/** Options of `@Tool()`. */
export interface ToolOptions {
  /** The `_tool` name the LLM uses; defaults to the camelCased class name (`WeatherReport` → `weatherReport`). */
  name?: string;
  /** What the tool does, shown to the LLM; say when to use it. */
  description?: string;
  /**
   * Every Call of this tool waits for a person's decision: the run stops with reason
   * `awaiting_approval` and `result.interruptions` until `agent.resume(runId, { decisions })`.
   */
  needsApproval?: boolean;
}

/**
 * Declares a class as a Tool: its decorated properties (class-validator, `@Describe`) are the params, other ideact
 * decorators add meta-fields. `toolSchema(Class)` builds the JSON Schema the LLM sees.
 */
export function Tool(options: ToolOptions = {}): ClassDecorator {
  return (target) => {
    const type = decoratedClass('@Tool', target);
    if (options.name !== undefined) assertToolName(options.name, type.name);
    registerOnce('@Tool', getMetadataStorage().tools, {
      target: type,
      name: options.name,
      description: options.description,
      ...(options.needsApproval === true ? { needsApproval: true } : {}),
    });
  };
}
