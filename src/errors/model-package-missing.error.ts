import { MissingPackageError } from './missing-package.error';

/**
 * A model was chosen by its provider prefix (`--model anthropic:claude-sonnet-4-5`,
 * `IDEACT_MODEL=google:gemini-2.5-flash`) but the AI SDK package of that provider is not installed in
 * the project. ideact depends on no vendor package: the user installs the ones they use. A kind of
 * {@link MissingPackageError}, so `MissingPackageError.isInstance` catches both.
 */
export class ModelPackageMissingError extends MissingPackageError {
  static override readonly code = 'MODEL_PACKAGE_MISSING';

  /** The model as given, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly model: string;
  /** Where it was looked up (the project folder). */
  readonly searchedFrom: string;

  constructor(options: {
    model: string;
    packageName: string;
    searchedFrom: string;
    cause?: unknown;
  }) {
    super({
      packageName: options.packageName,
      feature: `The model "${options.model}"`,
      problem:
        `The model "${options.model}" needs the AI SDK package ${options.packageName}, which is not installed ` +
        `(looked up from ${options.searchedFrom}).`,
      solutions: [
        'Or choose a model of a provider whose package is installed (docs/providers.md lists the prefixes).',
      ],
      cause: options.cause,
    });
    this.model = options.model;
    this.searchedFrom = options.searchedFrom;
  }
}
