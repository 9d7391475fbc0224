import { InputError } from './input.error';

/** An Idea file (or a directory of Ideas) given to codegen or the CLI does not exist. */
export class IdeaFileNotFoundError extends InputError {
  static override readonly code = 'IDEA_FILE_NOT_FOUND';

  /** The path as given. */
  readonly file: string;

  constructor(options: { file: string; cause?: unknown }) {
    super({
      message: `Idea file not found: ${options.file}. Check the path (it is relative to the current directory).`,
      cause: options.cause,
    });
    this.file = options.file;
  }
}
