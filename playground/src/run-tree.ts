import type {
  ErrorJson,
  Interruption,
  RenderedMessage,
  RunEventJson,
  RunUsageJson,
  UsageJson,
} from './api-types';
import { statusOfReason } from '../../src/runs/run-status-of-reason';

/**
 * Builds the run view's tree from a run's events (issue 20): runs own their model requests and Calls,
 * a module Call owns its sub-requests and its nested agent run, all placed by the events' `path`
 * (docs/runs-and-events.md). Pure and immutable, so React can re-render on every event.
 */

/** How far a node got: the statuses the UI shows (`data-status`). */
export type NodeStatus = 'running' | 'done' | 'error';

/** A run (the root run or a nested agent's run). */
export interface RunNode {
  kind: 'run';
  key: string;
  runId: string;
  path: readonly string[];
  task?: string;
  chain: string[];
  status: NodeStatus;
  /** The last `run-end`'s stop reason (`completed`, `awaiting_approval`…), while not running again. */
  stopReason?: string;
  output?: unknown;
  error?: ErrorJson;
  usage?: RunUsageJson;
  /** Calls the run asked approval for and that no later event settled. */
  approvals: Interruption[];
  start: number;
  end?: number;
  children: string[];
}

/** One model request: the Generator's, a Discriminator's or a module Call's sub-request. */
export interface RequestNode {
  kind: 'request';
  key: string;
  requestId: string;
  path: readonly string[];
  model?: string;
  provider?: string;
  schemaName?: string;
  attempt: number;
  /** The solution text streamed so far, per option index (0 unless `n > 1`). */
  texts: string[];
  /** The model's reasoning streamed so far, per option index; absent when the model showed none. */
  reasoning?: string[];
  /** The Vessel's output as the model writes it (`output-delta`, issue 32): the latest partial value. */
  output?: unknown;
  usage?: UsageJson;
  finishReasons?: string[];
  error?: ErrorJson;
  status: NodeStatus;
  start: number;
  end?: number;
}

/** One Call: its params, output or error, and what ran inside it (sub-requests, nested run). */
export interface CallNode {
  kind: 'call';
  key: string;
  callId: string;
  tool: string;
  /** The path of the run that executes the Call (its own work is one level deeper). */
  path: readonly string[];
  params?: Record<string, unknown>;
  instance?: string;
  eager: boolean;
  output?: unknown;
  error?: ErrorJson;
  status: NodeStatus;
  /** False for a placeholder made because inner events arrived before the `call-start`. */
  started: boolean;
  start: number;
  end?: number;
  children: string[];
}

/** Any node of the tree. */
export type TreeNode = RunNode | RequestNode | CallNode;

/** The whole tree: nodes by key, the root runs in order, and each request's rendered messages. */
export interface RunTree {
  nodes: Readonly<Record<string, TreeNode>>;
  roots: readonly string[];
  /** Rendered messages by requestId (`request-messages` SSE events, `requests` of GET /api/runs/:id). */
  messages: Readonly<Record<string, RenderedMessage[]>>;
  /** Time of the first and last event seen (for the waterfall). */
  firstTime?: number;
  lastTime?: number;
}

/** The tree before any event. */
export function emptyRunTree(): RunTree {
  return { nodes: {}, roots: [], messages: {} };
}

/** The key of the run node at `path`. */
export function runKey(path: readonly string[]): string {
  return path.join('/');
}

/** The key of Call `callId` executed by the run at `runPath`. */
export function callKey(runPath: readonly string[], callId: string): string {
  return `${path(runPath)}|call:${callId}`;
}

/** The key of request `requestId` emitted at `eventPath`. */
export function requestKey(eventPath: readonly string[], requestId: string): string {
  return `${path(eventPath)}|request:${requestId}`;
}

function path(ids: readonly string[]): string {
  return ids.join('/');
}

/** Applies events in order (a replay, or the `events` of GET /api/runs/:id). */
export function reduceRunEvents(tree: RunTree, events: readonly RunEventJson[]): RunTree {
  return events.reduce(applyRunEvent, tree);
}

/** Records the rendered messages of one request (they arrive right after its `request-start`). */
export function applyRequestMessages(
  tree: RunTree,
  requestId: string,
  messages: RenderedMessage[],
): RunTree {
  return { ...tree, messages: { ...tree.messages, [requestId]: messages } };
}

/** The tree after one more event; unknown event types leave it as it is (newer servers). */
export function applyRunEvent(tree: RunTree, event: RunEventJson): RunTree {
  const timed: RunTree = {
    ...tree,
    firstTime: tree.firstTime === undefined ? event.time : Math.min(tree.firstTime, event.time),
    lastTime: tree.lastTime === undefined ? event.time : Math.max(tree.lastTime, event.time),
  };
  const draft = new Draft(timed);
  switch (event.type) {
    case 'run-start': {
      const run = draft.run(event.path, event.time, event.runId);
      draft.put({
        ...run,
        task: event.task ?? run.task,
        chain: event.chain ?? run.chain,
        status: 'running',
        stopReason: undefined,
        error: undefined,
        end: undefined,
        approvals: [],
      });
      break;
    }
    case 'request-start': {
      const key = requestKey(event.path, event.requestId);
      const owner = draft.owner(event.path, event.time, event.runId);
      draft.put({
        kind: 'request',
        key,
        requestId: event.requestId,
        path: event.path,
        model: event.model,
        provider: event.provider,
        schemaName: event.schemaName,
        attempt: event.attempt ?? 0,
        texts: [],
        status: 'running',
        start: event.time,
      });
      draft.adopt(owner.key, key);
      if (event.messages !== undefined) draft.messages(event.requestId, event.messages);
      break;
    }
    case 'output-delta': {
      if (event.part !== 'output') break;
      const request = draft.request(event.path, event.requestId, event.time, event.runId);
      draft.put({ ...request, output: event.value });
      break;
    }
    case 'solution-delta': {
      const request = draft.request(event.path, event.requestId, event.time, event.runId);
      const index = event.index ?? 0;
      const texts = [...request.texts];
      while (texts.length <= index) texts.push('');
      texts[index] += event.delta;
      draft.put({ ...request, texts });
      break;
    }
    case 'reasoning-delta': {
      const request = draft.request(event.path, event.requestId, event.time, event.runId);
      const index = event.index ?? 0;
      const reasoning = [...(request.reasoning ?? [])];
      while (reasoning.length <= index) reasoning.push('');
      reasoning[index] += event.delta;
      draft.put({ ...request, reasoning });
      break;
    }
    case 'request-end': {
      const request = draft.request(event.path, event.requestId, event.time, event.runId);
      draft.put({
        ...request,
        model: event.model ?? request.model,
        usage: event.usage,
        finishReasons: event.finishReasons,
        error: event.error,
        status: event.error === undefined ? 'done' : 'error',
        end: event.time,
      });
      break;
    }
    case 'call-start': {
      const call = draft.call(event.path, event.callId, event.time, event.runId, event.tool);
      draft.put({
        ...call,
        tool: event.tool,
        params: event.params,
        instance: event.instance,
        eager: event.eager ?? false,
        status: 'running',
        started: true,
        start: call.started ? call.start : event.time,
        output: undefined,
        error: undefined,
        end: undefined,
      });
      draft.settleApproval(event.path, event.callId);
      break;
    }
    case 'call-end': {
      const call = draft.call(event.path, event.callId, event.time, event.runId, event.tool);
      draft.put({
        ...call,
        output: event.output,
        error: event.error,
        status: event.error === undefined ? 'done' : 'error',
        end: event.time,
      });
      draft.settleApproval(event.path, event.callId);
      break;
    }
    case 'approval-requested': {
      const run = draft.run(event.path, event.time, event.runId);
      const known = new Set(run.approvals.map((approval) => approval.callId));
      const added = event.calls.filter((call) => !known.has(call.callId));
      draft.put({ ...run, approvals: [...run.approvals, ...added] });
      break;
    }
    case 'step': {
      const run = draft.run(event.path, event.time, event.runId);
      if (event.usage !== undefined) draft.put({ ...run, usage: event.usage });
      break;
    }
    case 'run-end': {
      const run = draft.run(event.path, event.time, event.runId);
      const failed = event.error !== undefined || event.stopReason === 'error';
      draft.put({
        ...run,
        status: failed ? 'error' : 'done',
        stopReason: event.stopReason,
        output: event.output,
        error: event.error,
        usage: event.usage ?? run.usage,
        approvals: event.stopReason === 'awaiting_approval' ? run.approvals : [],
        end: event.time,
      });
      break;
    }
    default:
      return tree;
  }
  return draft.result();
}

/** Copy-on-write access to the tree while one event is applied. */
class Draft {
  private readonly nodes: Record<string, TreeNode>;
  private roots: string[];
  private messagesById: Readonly<Record<string, RenderedMessage[]>>;

  constructor(private readonly tree: RunTree) {
    this.nodes = { ...tree.nodes };
    this.roots = [...tree.roots];
    this.messagesById = tree.messages;
  }

  result(): RunTree {
    return { ...this.tree, nodes: this.nodes, roots: this.roots, messages: this.messagesById };
  }

  messages(requestId: string, messages: RenderedMessage[]): void {
    this.messagesById = { ...this.messagesById, [requestId]: messages };
  }

  put(node: TreeNode): void {
    this.nodes[node.key] = node;
  }

  adopt(parentKey: string, childKey: string): void {
    const parent = this.nodes[parentKey];
    if (parent === undefined || parent.kind === 'request') return;
    if (parent.children.includes(childKey)) return;
    this.put({ ...parent, children: [...parent.children, childKey] });
  }

  /** The run at `runPath`, created (and attached to its module Call) when first seen. */
  run(runPath: readonly string[], time: number, runId: string): RunNode {
    const key = runKey(runPath);
    const existing = this.nodes[key];
    if (existing?.kind === 'run') return existing;
    const run: RunNode = {
      kind: 'run',
      key,
      runId: runPath[runPath.length - 1] ?? runId,
      path: runPath,
      chain: [],
      status: 'running',
      approvals: [],
      start: time,
      children: [],
    };
    this.put(run);
    if (runPath.length <= 1) {
      this.roots.push(key);
    } else {
      // A nested agent's path is its module Call's run path, the Call's id, then its own run id.
      const callPath = runPath.slice(0, -2);
      const callId = runPath[runPath.length - 2];
      const call = this.call(callPath, callId, time, runId, undefined);
      this.adopt(call.key, key);
    }
    return run;
  }

  /** The Call `callId` of the run at `runPath`, a placeholder until its `call-start` arrives. */
  call(
    runPath: readonly string[],
    callId: string,
    time: number,
    runId: string,
    tool: string | undefined,
  ): CallNode {
    const key = callKey(runPath, callId);
    const existing = this.nodes[key];
    if (existing?.kind === 'call') return existing;
    const run = this.run(runPath, time, runId);
    const call: CallNode = {
      kind: 'call',
      key,
      callId,
      tool: tool ?? '',
      path: runPath,
      eager: false,
      status: 'running',
      started: false,
      start: time,
      children: [],
    };
    this.put(call);
    this.adopt(run.key, key);
    return call;
  }

  /** The run or module Call whose work is reported at `eventPath`. */
  owner(eventPath: readonly string[], time: number, runId: string): RunNode | CallNode {
    const asRun = this.nodes[runKey(eventPath)];
    if (asRun?.kind === 'run') return asRun;
    if (eventPath.length > 1) {
      const asCall = this.nodes[callKey(eventPath.slice(0, -1), eventPath[eventPath.length - 1])];
      if (asCall?.kind === 'call') return asCall;
    }
    if (eventPath.length <= 1) return this.run(eventPath, time, runId);
    // Neither seen yet: a sub-request path ends in a Call id (`<node>:<index>`), a run path in a run id.
    const last = eventPath[eventPath.length - 1];
    if (/^\d+:\d+$/.test(last))
      return this.call(eventPath.slice(0, -1), last, time, runId, undefined);
    return this.run(eventPath, time, runId);
  }

  /** The request, created when a delta or end arrives before its start (a partial replay). */
  request(
    eventPath: readonly string[],
    requestId: string,
    time: number,
    runId: string,
  ): RequestNode {
    const key = requestKey(eventPath, requestId);
    const existing = this.nodes[key];
    if (existing?.kind === 'request') return existing;
    const owner = this.owner(eventPath, time, runId);
    const request: RequestNode = {
      kind: 'request',
      key,
      requestId,
      path: eventPath,
      attempt: 0,
      texts: [],
      status: 'running',
      start: time,
    };
    this.put(request);
    this.adopt(owner.key, key);
    return request;
  }

  /** Drops a Call from its run's pending approvals once it runs, ends or is rejected. */
  settleApproval(runPath: readonly string[], callId: string): void {
    const run = this.nodes[runKey(runPath)];
    if (run?.kind !== 'run') return;
    if (!run.approvals.some((approval) => approval.callId === callId)) return;
    this.put({ ...run, approvals: run.approvals.filter((approval) => approval.callId !== callId) });
  }
}

/** The nodes in display order (depth first), each with its depth: what the tree view and waterfall list. */
export function flattenRunTree(tree: RunTree): Array<{ node: TreeNode; depth: number }> {
  const rows: Array<{ node: TreeNode; depth: number }> = [];
  const visit = (key: string, depth: number): void => {
    const node = tree.nodes[key];
    if (node === undefined) return;
    rows.push({ node, depth });
    if (node.kind !== 'request') for (const child of node.children) visit(child, depth + 1);
  };
  for (const root of tree.roots) visit(root, 0);
  return rows;
}

/**
 * The run status a stop reason means, as the run store reports it: the runtime's own
 * `statusOfReason` (type imports only, so it bundles for the browser).
 */
export const statusOfStopReason = statusOfReason;

/** A run node's status in the run store's words: running, completed, awaiting_approval, failed… */
export function runStatus(run: RunNode): string {
  if (run.status === 'running') return 'running';
  if (run.status === 'error' && run.stopReason !== 'cancelled') return 'failed';
  return statusOfStopReason(run.stopReason ?? 'output');
}

/** The root run's status for the page header (`waiting` before its first event). */
export function rootStatus(tree: RunTree): string {
  const root = tree.roots.length > 0 ? tree.nodes[tree.roots[0]] : undefined;
  if (root === undefined || root.kind !== 'run') return 'waiting';
  return runStatus(root);
}

/** Every Call waiting for a decision, across the root run and its nested runs. */
export function pendingApprovals(tree: RunTree): Interruption[] {
  const pending: Interruption[] = [];
  for (const { node } of flattenRunTree(tree)) {
    if (node.kind === 'run' && node.stopReason === 'awaiting_approval')
      pending.push(...node.approvals);
  }
  return pending;
}
