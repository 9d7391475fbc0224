import { ModelBehaviorError } from './model-behavior.error';

/**
 * Calls of one solution read each other's outputs in a circle (R-FLOW-3): none of them can start, so
 * each fails with this error naming the chain; the model sees it and plans again.
 */
export class DependencyCycleError extends ModelBehaviorError {
  static override readonly code = 'CALL_DEPENDENCY_CYCLE';

  /** The Call this result belongs to (`_tool`). */
  readonly toolName: string;
  /** The cycle as `<call id> <tool>` entries, the first repeated at the end. */
  readonly chain: string[];

  constructor(options: { toolName: string; chain: string[]; cause?: unknown }) {
    super({
      message:
        `Call "${options.toolName}" is part of a dependency cycle: ${options.chain.join(' → ')}. ` +
        'Each of these Calls reads (†) a path another one writes (_outputPath), so none can start. ' +
        'Break the cycle: read the data from an earlier turn, or drop one of the references.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.chain = options.chain;
  }
}
