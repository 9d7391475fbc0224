import { mergeDataMessages } from '../protocol/merge-data';
import type { AgentState } from '../runs/agent-state';
import { contextView } from '../runs/state-tree';

/**
 * The run's State as one JSON value (R-DATA-1: every global `state` message merged, output writes
 * folded), what AG-UI's state snapshots carry; null when the run has none.
 */
export function runStateValue(state: AgentState | undefined): unknown {
  if (state === undefined) return null;
  for (const message of mergeDataMessages([...contextView(state)])) {
    if (message.type === 'state' && message._instance === undefined) return message.state;
    if (message.type === 'data' && message.kind === 'state' && message._instance === undefined) {
      return message.data;
    }
  }
  return null;
}
