import { IdeactError, type ErrorFault } from './ideact-error';

/**
 * Group: the user's input must change (an Idea file, a state file, a command-line argument, a schema).
 * Catch this to handle the whole group: `InputError.isInstance(error)` holds for every error in it.
 */
export abstract class InputError extends IdeactError {
  static override readonly code: string = 'INPUT_ERROR';
  static override readonly fault: ErrorFault = 'input';
}
