import { IdeactError, type ErrorFault } from './ideact-error';

/**
 * Group: a Call or a run failed while executing (an Activity threw, a reference was missing, a limit hit).
 * Catch this to handle the whole group: `ExecutionError.isInstance(error)` holds for every error in it.
 */
export abstract class ExecutionError extends IdeactError {
  static override readonly code: string = 'EXECUTION_ERROR';
  static override readonly fault: ErrorFault = 'runtime';
}
