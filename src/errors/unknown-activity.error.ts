import { ConfigurationError } from './configuration.error';

/** A Tool's `_activity` names an Activity that is not registered with the executor. */
export class UnknownActivityError extends ConfigurationError {
  static override readonly code = 'UNKNOWN_ACTIVITY';

  /** The Activity name the Tool asked for. */
  readonly activity: string;
  /** The Tool at fault. */
  readonly toolName: string;
  /** The Activities that are registered. */
  readonly knownActivities: string[];

  constructor(options: {
    activity: string;
    toolName: string;
    knownActivities: string[];
    cause?: unknown;
  }) {
    const known = options.knownActivities.length
      ? options.knownActivities.map((name) => `"${name}"`).join(', ')
      : '(none)';
    super({
      message:
        `Tool "${options.toolName}" names activity "${options.activity}", which is not registered (registered: ${known}). ` +
        'Register the Activity with the executor/container, or set `_activity` to "" for a latent tool.',
      cause: options.cause,
    });
    this.activity = options.activity;
    this.toolName = options.toolName;
    this.knownActivities = [...options.knownActivities];
  }
}
