import { InputError } from './input.error';

/**
 * A module reference points outside the configured module root (`..`, an absolute path elsewhere, a
 * symlink whose target leaves the root) or is not a `.json` file (R-MOD-6).
 */
export class ModulePathError extends InputError {
  static override readonly code = 'MODULE_PATH';

  /** The module reference as written in `_module`. */
  readonly path: string;
  /** The module root it had to stay inside (absolute). */
  readonly root: string;

  constructor(options: { path: string; root: string; reason: string; cause?: unknown }) {
    super({
      message:
        `Module "${options.path}" is not allowed: ${options.reason} (module root: "${options.root}"). ` +
        'Put the Idea file (.json) inside the module root and reference it relative to the root, ' +
        'or configure `moduleRoot` to a directory that contains it.',
      cause: options.cause,
    });
    this.path = options.path;
    this.root = options.root;
  }
}
