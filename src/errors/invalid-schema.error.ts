import { InputError } from './input.error';

/** A JSON Schema given to ideact (a tool, an Idea, an output schema) is not valid JSON Schema. */
export class InvalidSchemaError extends InputError {
  static override readonly code = 'INVALID_SCHEMA';

  /** The file (or label) holding the schema, when known (e.g. the Idea file `validate` checked). */
  readonly source?: string;
  /** JSON Pointer of the schema inside `source`, when known (e.g. `/schema`, `/context/0/schema`). */
  readonly jsonPath?: string;

  constructor(options: { message: string; source?: string; jsonPath?: string; cause?: unknown }) {
    super({ message: options.message, cause: options.cause });
    if (options.source !== undefined) this.source = options.source;
    if (options.jsonPath !== undefined) this.jsonPath = options.jsonPath;
  }
}
