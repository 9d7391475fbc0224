import { ExecutionError } from './execution.error';

/** Modules are nested deeper than `maxModuleDepth` allows (R-MOD-5). */
export class ModuleDepthError extends ExecutionError {
  static override readonly code = 'MODULE_DEPTH';

  /** The depth the module would run at (the top-level agent is depth 0). */
  readonly depth: number;
  /** The configured limit. */
  readonly maxDepth: number;
  /** The module ids from the root to the module that was refused. */
  readonly chain: string[];

  constructor(options: { depth: number; maxDepth: number; chain: string[]; cause?: unknown }) {
    super({
      message:
        `Module "${options.chain[options.chain.length - 1] ?? '?'}" would run at depth ${options.depth}, ` +
        `over the limit of ${options.maxDepth} (chain: ${options.chain.join(' → ')}). ` +
        'Flatten the module hierarchy or raise `maxModuleDepth`.',
      cause: options.cause,
    });
    this.depth = options.depth;
    this.maxDepth = options.maxDepth;
    this.chain = [...options.chain];
  }
}
