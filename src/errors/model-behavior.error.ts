import { IdeactError, type ErrorFault } from './ideact-error';

/**
 * Group: the model's reply broke the contract (invalid solution, unknown tool, bad params, refusal);
 * the run repairs or feeds these back to the model where it can.
 * Catch this to handle the whole group: `ModelBehaviorError.isInstance(error)` holds for every error in it.
 */
export abstract class ModelBehaviorError extends IdeactError {
  static override readonly code: string = 'MODEL_BEHAVIOR';
  static override readonly fault: ErrorFault = 'model';
}
