import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * The configuration given to `createContainer()` is inconsistent (duplicate tool names, an `_activity`
 * nobody registered, a class that is not a tool, …). Thrown at container start, before any LLM call.
 */
export class ContainerConfigurationError extends ConfigurationError {
  static override readonly code = 'CONTAINER_CONFIGURATION';

  /** The config field at fault: `tools`, `activities`, `provider`, … */
  readonly setting: string;
  /** What was called with it: `createContainer` (also for `createAgent`) or `new Executor`. */
  readonly api: string;
  /** The fixes the message suggests, one per entry. */
  readonly solutions: readonly string[];

  constructor(options: {
    setting: string;
    /** Default `createContainer`. */
    api?: string;
    problem: string;
    solutions: readonly string[];
    cause?: unknown;
  }) {
    super({
      message: withPotentialSolutions(
        `${options.api ?? 'createContainer'}({ ${options.setting} }): ${options.problem}`,
        options.solutions,
      ),
      cause: options.cause,
    });
    this.setting = options.setting;
    this.api = options.api ?? 'createContainer';
    this.solutions = options.solutions;
  }
}
