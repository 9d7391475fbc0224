import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * A TypeScript config (`ideact dev --config ideact.config.ts`, `ideact mcp serve --config …`) cannot
 * be loaded: ideact loads `.ts`/`.mts`/`.cts` modules with tsx from the user's own project, and it
 * is not installed there. ideact ships none, so the project picks (and pins) the version.
 */
export class TypeScriptLoaderMissingError extends ConfigurationError {
  static override readonly code = 'TYPESCRIPT_LOADER_MISSING';

  /** The TypeScript module that needed a loader, as given. */
  readonly file: string;
  /** The loader packages looked for (`['tsx']`). */
  readonly packages: readonly string[];
  /** The folders they were looked for from (the config's own, then the working directory). */
  readonly searchedFrom: readonly string[];
  /** The command that installs the first of them. */
  readonly installCommand: string;

  constructor(options: {
    file: string;
    packages: readonly string[];
    searchedFrom: readonly string[];
    cause?: unknown;
  }) {
    const [first = 'tsx', ...others] = options.packages;
    const installCommand = `npm i -D ${first}`;
    super({
      message: withPotentialSolutions(
        `Cannot load the TypeScript module ${options.file}: ideact loads .ts, .mts and .cts files with ${[first, ...others].join(' or ')} from your project, ` +
          `and it is not installed there (looked from ${options.searchedFrom.join(' and ')}).`,
        [
          `Install ${first} in your project: ${installCommand}${others.length > 0 ? ` (or ${others.map((name) => `npm i -D ${name}`).join(', ')})` : ''}.`,
          'Or compile the config to JavaScript (tsc) and pass the .js file.',
        ],
      ),
      cause: options.cause,
    });
    this.file = options.file;
    this.packages = [...options.packages];
    this.searchedFrom = [...options.searchedFrom];
    this.installCommand = installCommand;
  }
}
