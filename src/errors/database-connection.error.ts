import { ConfigurationError } from './configuration.error';

/**
 * A run store could not connect to its database (refused, unknown host, timeout, authentication,
 * missing database). Names the server and database, never the password, and how to start one.
 */
export class DatabaseConnectionError extends ConfigurationError {
  static override readonly code = 'DATABASE_CONNECTION';

  /** `host:port` (or the socket folder) the store tried. */
  readonly target: string;
  /** The database name, when known. */
  readonly database?: string;

  constructor(options: {
    target: string;
    database?: string;
    user?: string;
    detail: string;
    cause?: unknown;
  }) {
    const what =
      `PostgreSQL at ${options.target}` +
      (options.database === undefined ? '' : ` (database "${options.database}"`) +
      (options.user === undefined || options.database === undefined
        ? ''
        : `, user "${options.user}"`) +
      (options.database === undefined ? '' : ')');
    super({
      message:
        `Cannot connect to ${what}: ${options.detail}. ` +
        'Check the connection string (host, port, user, database) and that the server runs; ' +
        'in a clone of ideact, `npm run pg:start` starts a throwaway local PostgreSQL and prints its URL.',
      cause: options.cause,
    });
    this.target = options.target;
    this.database = options.database;
  }
}
