import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * An ideact decorator (`@Tool`, `@Output`, `@Module`, …) is misused: thrown when the decorator runs or
 * when the class is turned into a tool schema. The message ends with a "Potential solutions" list.
 */
export class DecoratorError extends ConfigurationError {
  static override readonly code = 'DECORATOR_MISUSE';

  /** The decorator at fault, e.g. `@Module`. */
  readonly decorator: string;
  /** Where it is applied: a class name, or `Class.property`. */
  readonly target: string;
  /** The fixes the message suggests, one per entry. */
  readonly solutions: readonly string[];

  constructor(options: {
    decorator: string;
    target: string;
    problem: string;
    solutions: readonly string[];
    cause?: unknown;
  }) {
    super({
      message: withPotentialSolutions(
        `${options.decorator} on ${options.target}: ${options.problem}`,
        options.solutions,
      ),
      cause: options.cause,
    });
    this.decorator = options.decorator;
    this.target = options.target;
    this.solutions = options.solutions;
  }
}
