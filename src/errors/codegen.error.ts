import { InputError } from './input.error';

/**
 * Codegen cannot turn an Idea into a TypeScript file: the Idea lies outside the module root, two Ideas
 * map to the same output file, or json-schema-to-typescript rejects a schema.
 */
export class CodegenError extends InputError {
  static override readonly code = 'CODEGEN_FAILED';

  /** The Idea file at fault. */
  readonly file: string;
  /** JSON Pointer of the offending part inside the Idea, `''` for the whole file. */
  readonly jsonPath: string;

  constructor(options: {
    file: string;
    jsonPath?: string;
    reason: string;
    fix: string;
    cause?: unknown;
  }) {
    const jsonPath = options.jsonPath ?? '';
    const where = jsonPath === '' ? '' : ` at ${jsonPath}`;
    super({
      message: `Cannot generate code from ${options.file}${where}: ${options.reason}. ${options.fix}`,
      cause: options.cause,
    });
    this.file = options.file;
    this.jsonPath = jsonPath;
  }
}
