import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * A feature needs an optional package that is not installed (issue 29: a light core). ideact's
 * heavy parts — PostgreSQL stores and workers, MCP, OpenTelemetry's SDK, codegen, class-based Tools —
 * are optional peer dependencies loaded on first use; this names the package and the command that
 * installs it.
 */
export class MissingPackageError extends ConfigurationError {
  static override readonly code: string = 'MISSING_PACKAGE';

  /** The package that is not installed, e.g. `pg`. */
  readonly packageName: string;
  /** What needed it, e.g. `PostgresRunStore`. */
  readonly feature: string;
  /** The command that installs it (with the packages it goes with), e.g. `npm i pg`. */
  readonly installCommand: string;

  constructor(options: {
    packageName: string;
    feature: string;
    /** Every package the feature needs (default: just `packageName`), for the install command. */
    packages?: readonly string[];
    /** Replaces the first sentence (subclasses say more about what needed the package). */
    problem?: string;
    /** More ways out, after the install command. */
    solutions?: readonly string[];
    cause?: unknown;
  }) {
    const packages = options.packages ?? [options.packageName];
    const installCommand = `npm i ${packages.join(' ')}`;
    super({
      message: withPotentialSolutions(
        options.problem ??
          `${options.feature} needs the package "${options.packageName}", which is not installed: ` +
            'it is an optional dependency of ideact, installed only by the projects that use it.',
        [
          `Install it: ${installCommand}`,
          ...(options.solutions ?? [
            'See "Install in your app" in the README for what each optional package adds.',
          ]),
        ],
      ),
      cause: options.cause,
    });
    this.packageName = options.packageName;
    this.feature = options.feature;
    this.installCommand = installCommand;
  }
}
