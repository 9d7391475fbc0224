import { InputError } from './input.error';

/**
 * A module reference points outside the configured module root (`..`, an absolute path elsewhere, a
 * symlink whose target leaves the root) or is not a `.json` file (R-MOD-6).
 */
export class ModulePathError extends InputError {
  static override readonly code = 'MODULE_PATH';

  /** The module reference as written in `_module` / `_delegate`. */
  readonly path: string;
  /** The module root it had to stay inside (absolute). */
  readonly root: string;

  constructor(options: { path: string; root: string; reason: string; cause?: unknown }) {
    super({
      message:
        `Module "${visible(options.path)}" is not allowed: ${options.reason} (module root: "${options.root}"). ` +
        'Put the Idea file (.json) inside the module root and reference it relative to the root, ' +
        'or configure `moduleRoot` to a directory that contains it.',
      cause: options.cause,
    });
    this.path = options.path;
    this.root = options.root;
  }
}

/** The path with control characters (a NUL byte…) written as `\u0000`, so the message shows them. */
function visible(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
