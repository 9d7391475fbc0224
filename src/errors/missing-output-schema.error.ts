import { ConfigurationError } from './configuration.error';

/** A latent anonymous module has no schema to generate: its Tool declares no `_output` (R-MOD-2). */
export class MissingOutputSchemaError extends ConfigurationError {
  static override readonly code = 'MISSING_OUTPUT_SCHEMA';

  /** The Tool at fault. */
  readonly toolName: string;

  constructor(options: { toolName: string; cause?: unknown }) {
    super({
      message:
        `Tool "${options.toolName}" runs as an anonymous latent module but declares no output schema. ` +
        'Add an `_output` schema to the tool (the `@Output` decorator), or give it an Activity.',
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }
}
