import { InputError } from './input.error';

/** A JSON Schema given to ideact (a tool, an Idea, an output schema) is not valid JSON Schema. */
export class InvalidSchemaError extends InputError {
  static override readonly code = 'INVALID_SCHEMA';
}
