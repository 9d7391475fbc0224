import { IdeactError } from './ideact-error';

/** A JSON Schema given to ideact (a tool, an Idea, an output schema) is not valid JSON Schema. */
export class InvalidSchemaError extends IdeactError {
  static override readonly code = 'INVALID_SCHEMA';
  static override readonly fault = 'configuration' as const;
}
