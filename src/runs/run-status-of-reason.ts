import type { StopReason } from './agent-state';
import type { RunStatus } from './run-store';

/**
 * The status a stop reason means (`output`/`no_calls` complete a run; limits and aborts stop it).
 * Type imports only, so the playground's browser bundle shares it with the run stores.
 */
export function statusOfReason(reason: StopReason | string): RunStatus {
  switch (reason) {
    case 'output':
    case 'no_calls':
      return 'completed';
    case 'awaiting_approval':
      return 'awaiting_approval';
    case 'planned':
      return 'planned';
    case 'error':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'stopped';
  }
}
