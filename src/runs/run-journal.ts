import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { cloneJson } from '../protocol/merge-patch';
import type { CommitEntry, JournalEntry, OpenCall, RunStatus } from './run-store';
import { statusOfReason } from './run-status-of-reason';
import type { AgentNode, AgentState, NextStep } from './agent-state';
import { copyLimits } from './copy-limits';

export { statusOfReason } from './run-status-of-reason';

/**
 * The journal of a run (issue 18) as pure functions: what a step commits (only the nodes appended
 * since the previous commit, plus the small fields), and how a stored state is rebuilt from a
 * checkpoint and the entries after it. Stores share them, so every store replays alike.
 */

/** The status a state's `nextStep` means. */
export function statusOf(state: AgentState): RunStatus {
  const step = state.nextStep;
  if (step.module !== 'done') return 'running';
  return statusOfReason(step.args.reason);
}

/**
 * The commit of one step: nodes from `from` on (a step that was rolled back lowers `from`), the
 * head, next step, usage and limits. What can be recomputed is left out, so a long run's journal
 * grows with its nodes, not with its prompts: the Generator's rendered messages (a resumed run
 * renders them again) and nested agents' states (stored as runs of their own; `nestedRunIds` names them).
 */
export function commitEntry(state: AgentState, from: number, time = new Date()): CommitEntry {
  return {
    type: 'commit',
    from,
    nodes: state.nodes.slice(from).map(storedNode),
    head: state.head,
    nextStep: storedStep(state.nextStep),
    usage: cloneJson(state.usage) as AgentState['usage'],
    limits: copyLimits(state.limits),
    status: statusOf(state),
    time: time.toISOString(),
  };
}

/** What a commit sets besides nodes, as text: a commit whose key is the last one's changes nothing else. @internal */
export function commitKeyOf(
  commit: Pick<CommitEntry, 'head' | 'nextStep' | 'limits' | 'status'>,
): string {
  return JSON.stringify([commit.head, commit.nextStep, commit.limits, commit.status]);
}

/**
 * The key of the commit a store's `status` and `state` amount to (the run as loaded): a run opened on
 * it does not write that commit again (issue 31: a worker's Actor step re-wrote it per turn). @internal
 */
export function storedCommitKey(state: AgentState, status: RunStatus): string {
  return commitKeyOf({
    head: state.head,
    nextStep: storedStep(state.nextStep),
    limits: state.limits,
    status,
  });
}

/**
 * A node as the journal keeps it: a copy (the live node changes after its commit, e.g. its children),
 * as JSON would store it, with nested states replaced by their run ids.
 */
function storedNode(node: AgentNode): AgentNode {
  const nested = node.metadata.nested;
  if (!Array.isArray(nested) || nested.length === 0) return cloneJson(node) as AgentNode;
  // The nested states are not copied only to be dropped.
  const { nested: _nested, ...metadata } = node.metadata;
  const copy = cloneJson({ ...node, metadata }) as AgentNode;
  copy.metadata.nestedRunIds = nested.map((state) => state.runId ?? '');
  return copy;
}

/** A step without what can be recomputed (the Generator's prompt; the Discriminator's is kept small). */
function storedStep(step: NextStep): NextStep {
  if (step.module === 'generator') return { module: 'prompter', args: {} };
  if (step.module === 'discriminator') {
    // The messages (the whole prompt) are dropped: not cloned first.
    const { messages: _messages, ...rest } = step.args;
    return { module: 'discriminator', args: { ...(cloneJson(rest) as typeof rest), messages: [] } };
  }
  if (step.module === 'done' && step.args.pending !== undefined) {
    return {
      module: 'done',
      args: {
        ...(cloneJson(step.args) as typeof step.args),
        pending: storedStep(step.args.pending) as never,
      },
    };
  }
  return cloneJson(step) as NextStep;
}

/** What replaying a journal gives: the state (changed in place), the status and the Calls' attempts. */
export interface ReplayResult {
  state: AgentState;
  status: RunStatus;
  attempts: Record<string, number>;
  openCalls: OpenCall[];
}

/**
 * Applies journal entries to a checkpointed state, in order (the state is changed in place). A
 * commit whose `from` is past the stored nodes means entries are missing: an InvalidAgentStateError.
 */
export function replayJournal(
  state: AgentState,
  entries: readonly JournalEntry[],
  initial: { status?: RunStatus; attempts?: Record<string, number> } = {},
): ReplayResult {
  let status: RunStatus = initial.status ?? statusOf(state);
  const attempts: Record<string, number> = { ...initial.attempts };
  const open = new Map<string, number>();
  for (const entry of entries) {
    if (entry.type === 'commit') {
      applyCommit(state, entry);
      status = entry.status;
    } else if (entry.type === 'call-start') {
      attempts[entry.callId] = Math.max(attempts[entry.callId] ?? 0, entry.attempt);
      open.set(entry.callId, entry.attempt);
    } else if (entry.type === 'call-end') {
      open.delete(entry.callId);
    } else {
      status = entry.status;
    }
  }
  // A Call whose result node is in the state ended, even if its end entry was lost.
  const ended = endedCallIds(state);
  const openCalls = [...open]
    .filter(([callId]) => !ended.has(callId))
    .map(([callId, attempt]) => ({ callId, attempt }));
  return { state, status, attempts, openCalls };
}

/** The ids of the Calls whose result nodes are in the state (they ended). @internal */
export function endedCallIds(state: AgentState): Set<string> {
  const ended = new Set<string>();
  for (const node of state.nodes) {
    const source = node.metadata.source;
    if (source !== undefined) ended.add(`${source.nodeId}:${source.callIndex}`);
  }
  return ended;
}

function applyCommit(state: AgentState, entry: CommitEntry): void {
  if (entry.from > state.nodes.length) {
    throw new InvalidAgentStateError({
      jsonPath: '/nodes',
      reason: `a journal commit starts at node ${entry.from} but only ${state.nodes.length} nodes are stored (entries are missing)`,
    });
  }
  const removed = state.nodes.splice(entry.from);
  if (removed.length > 0) {
    for (const node of state.nodes) node.children = node.children.filter((id) => id < entry.from);
  }
  for (const node of entry.nodes) {
    state.nodes.push(node);
    const parent = node.parent === null ? undefined : state.nodes[node.parent];
    if (parent !== undefined && parent !== node && !parent.children.includes(node.id)) {
      parent.children.push(node.id);
    }
  }
  state.head = entry.head;
  state.nextStep = entry.nextStep;
  state.usage = entry.usage;
  state.limits = entry.limits;
}
