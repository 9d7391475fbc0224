import { ModelBehaviorError } from './model-behavior.error';

/** A Vessel solution does not have the shape `{ calls: Call[], output }` (the model's fault). */
export class InvalidVesselError extends ModelBehaviorError {
  static override readonly code = 'INVALID_VESSEL';

  /** JSON Pointer of the offending value in the solution, `''` for the root. */
  readonly jsonPath: string;

  constructor(options: { jsonPath: string; reason: string; cause?: unknown }) {
    const where = options.jsonPath === '' ? '(root)' : options.jsonPath;
    super({
      message:
        `Invalid Vessel solution at ${where}: ${options.reason}. ` +
        'A Vessel solution is { "calls": [{ "_tool": "<name>", ...params }], "output": <value> | null }.',
      cause: options.cause,
    });
    this.jsonPath = options.jsonPath;
  }
}
