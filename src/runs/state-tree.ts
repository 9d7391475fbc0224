import { findJsonDepthViolation, MAX_JSON_DEPTH } from '../protocol/json-depth';
import type { JSONSchema } from '../protocol/json-schema';
import type { Message } from '../protocol/message';
import { checkMessage } from '../protocol/parse-idea';
import { PathMemo } from './path-memo';
import { editCount, mayHaveEdited } from './state-edits';
import { InvalidAgentStateError } from '../errors/invalid-agent-state.error';
import { copyLimits } from './copy-limits';
import {
  AGENT_STATE_VERSION,
  type AgentLimits,
  type AgentNode,
  type AgentState,
  type NodeMessage,
  type NodeMetadata,
} from './agent-state';

/**
 * How deeply a whole state may nest: its own structure (nodes, messages, nested agent states) wraps
 * data that is itself limited to MAX_JSON_DEPTH levels. Deeper states are rejected before they
 * overflow the stack. @internal
 */
export const MAX_STATE_DEPTH = 4 * MAX_JSON_DEPTH;

/** The reason an InvalidAgentStateError gives for a state nested past `maxDepth`. @internal */
export function depthReason(maxDepth: number): string {
  return (
    `the state nests more than ${maxDepth} levels deep (data inside a state is limited to ` +
    `MAX_JSON_DEPTH = ${MAX_JSON_DEPTH} levels, so that formatting and saving it cannot overflow the stack)`
  );
}

/** What a new state starts from. */
export interface InitialStateOptions {
  /** The task, appended as the last initial node (a user text message). */
  task?: string;
  /** Initial messages (system prompt, data, input…), appended before the task. */
  context?: Message[];
  /** The user's output schema. */
  output?: JSONSchema;
  /** Instance ids offered to the LLM as `_instance` (R-INST-1). */
  instances?: string[];
  limits?: AgentLimits;
  /** The modules chain of a nested run. */
  chain?: string[];
}

/** A fresh state: the context and the task as a chain of `input` nodes, next step the Prompter. */
export function createInitialState(options: InitialStateOptions = {}): AgentState {
  const state: AgentState = {
    version: AGENT_STATE_VERSION,
    nodes: [],
    head: null,
    nextStep: { module: 'prompter', args: {} },
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, steps: 0, turns: 0, elapsedMs: 0 },
    limits: copyLimits(options.limits),
    chain: [...(options.chain ?? [])],
  };
  if (options.task !== undefined) state.task = options.task;
  if (options.output !== undefined) state.output = options.output;
  if (options.instances !== undefined) state.instances = [...options.instances];
  for (const message of options.context ?? []) appendNode(state, message, { module: 'input' });
  if (options.task !== undefined) {
    appendNode(state, { type: 'text', role: 'user', text: options.task }, { module: 'input' });
  }
  return state;
}

/** The node with that id; a typed error naming the JSON path when it does not exist. */
export function getNode(state: AgentState, id: number, jsonPath = `/nodes/${id}`): AgentNode {
  const node = Number.isInteger(id) ? state.nodes[id] : undefined;
  if (!node || node.id !== id) {
    throw new InvalidAgentStateError({
      jsonPath,
      reason: `node ${String(id)} does not exist (the state has ${state.nodes.length} nodes)`,
    });
  }
  return node;
}

/**
 * Appends a node under `parent` (default: the head) and makes it the head. Ids are the array index, so
 * they are continuous and never reused.
 */
export function appendNode(
  state: AgentState,
  message: NodeMessage,
  metadata: NodeMetadata,
  parent: number | null = state.head,
  options: { makeHead?: boolean } = {},
): AgentNode {
  const node: AgentNode = { id: state.nodes.length, parent, children: [], message, metadata };
  // `typeof`, not `!== null`: a check V8 compiles for both kinds at once (the root's null comes
  // once per run, after the node ids V8 saw, and threw away the optimized code, issue 28).
  if (typeof parent === 'number') getNode(state, parent).children.push(node.id);
  state.nodes.push(node);
  if (options.makeHead !== false) state.head = node.id;
  return node;
}

/**
 * A cheap snapshot of the parts of a state that steps change (nodes are append-only): taken at every
 * checkpoint so a failing step can be rolled back in O(nodes added), not by copying the whole tree.
 * @internal
 */
export interface StateMark {
  nodeCount: number;
  head: number | null;
  nextStep: AgentState['nextStep'];
  usage: AgentState['usage'];
  limits: AgentState['limits'];
}

/** Marks `state` for {@link rollbackState}. @internal */
export function markState(state: AgentState): StateMark {
  return {
    nodeCount: state.nodes.length,
    head: state.head,
    nextStep: state.nextStep,
    usage: { ...state.usage },
    limits: copyLimits(state.limits),
  };
}

/** Puts `state` back to `mark`: drops the nodes added since and restores head, next step and counters. @internal */
export function rollbackState(state: AgentState, mark: StateMark): void {
  const removed = state.nodes.splice(mark.nodeCount);
  for (const node of removed) {
    if (node.parent === null || node.parent >= mark.nodeCount) continue;
    const parent = state.nodes[node.parent];
    if (parent !== undefined) parent.children = parent.children.filter((id) => id < mark.nodeCount);
  }
  state.head = mark.head;
  state.nextStep = mark.nextStep;
  state.usage = { ...mark.usage };
  state.limits = copyLimits(mark.limits);
}

/** The last path walked per state (extended by the next walk), and the edit count it was checked at. */
const paths = new WeakMap<AgentState, { nodes: AgentNode[]; checkedAt: number }>();

/**
 * The nodes from the root to `id` (inclusive), in order: the conversation the LLM sees. A walk that
 * extends the previous one reuses it (checked node by node: same node objects and parent links —
 * once per {@link mayHaveEdited}, else only its last node), so a turn does not walk the whole tree
 * of a long run again. Returns a new array.
 */
export function pathTo(state: AgentState, id: number | null = state.head): AgentNode[] {
  // Called from user code, which may have edited the state in place since the last read.
  mayHaveEdited(state);
  return pathView(state, id).slice();
}

/** {@link pathTo} without the copy, for callers that only read it. @internal */
export function pathView(state: AgentState, id: number | null = state.head): readonly AgentNode[] {
  const tail: AgentNode[] = [];
  const cached = paths.get(state);
  const last = cached?.nodes.at(-1);
  let current = id;
  while (current !== null && !(last !== undefined && current === last.id)) {
    const node = getNode(state, current);
    // Parents are always earlier nodes, so the walk ends; a hand-edited state may break that.
    if (node.parent !== null && node.parent >= current) {
      throw new InvalidAgentStateError({
        jsonPath: `/nodes/${current}/parent`,
        reason: 'a parent must be an earlier node (the parent links would form a cycle)',
      });
    }
    tail.push(node);
    current = node.parent;
  }
  tail.reverse();
  if (current !== null && cached !== undefined && stillHolds(state, cached)) {
    // Extended in place: a path handed out earlier grows with it (read-only views, read at once).
    for (const node of tail) cached.nodes.push(node);
    return cached.nodes;
  }
  const path = current === null ? tail : walk(state, id);
  paths.set(state, { nodes: path, checkedAt: editCount(state) });
  return path;
}

/**
 * True when the cached path is still the state's. Its last node still in place is enough while no
 * code that may edit the state ran since it was checked (steps only append nodes or drop the newest
 * ones); otherwise every node is checked: the same node objects and parent links.
 */
function stillHolds(
  state: AgentState,
  cached: { nodes: readonly AgentNode[]; checkedAt: number },
): boolean {
  const last = cached.nodes.at(-1);
  if (last !== undefined && state.nodes[last.id] !== last) return false;
  const edits = editCount(state);
  if (cached.checkedAt === edits) return true;
  let parent: number | null = null;
  for (const node of cached.nodes) {
    if (state.nodes[node.id] !== node || node.parent !== parent) return false;
    parent = node.id;
  }
  cached.checkedAt = edits;
  return true;
}

/** The uncached walk (used when the cached path no longer holds). */
function walk(state: AgentState, id: number | null): AgentNode[] {
  paths.delete(state);
  return pathView(state, id) as AgentNode[];
}

/** Each path node's protocol message, or undefined for a Vessel choice (kept per state, extended). */
const pathContext = new PathMemo<Message | undefined>((node) =>
  node.message.type === 'vessel' ? undefined : node.message,
);

/** The last context built per state: the memo values it was built from, and the messages. */
const contexts = new WeakMap<
  AgentState,
  { from: readonly unknown[]; length: number; messages: Message[] }
>();

/** The protocol messages on the path to `id` (Vessel choices left out): the context Calls run in. */
export function contextMessages(state: AgentState, id: number | null = state.head): Message[] {
  mayHaveEdited(state);
  return contextView(state, id).slice();
}

/**
 * {@link contextMessages} without the copy: extended in place as the run grows, so read it now (a
 * Call's context during one Actor step) and copy what you keep. @internal
 */
export function contextView(state: AgentState, id: number | null = state.head): readonly Message[] {
  const values = pathContext.values(state, pathView(state, id));
  let cached = contexts.get(state);
  // Same memo array, grown or equal: only the new nodes need looking at.
  if (cached === undefined || cached.from !== values || cached.length > values.length) {
    cached = { from: values, length: 0, messages: [] };
    contexts.set(state, cached);
  }
  for (let index = cached.length; index < values.length; index++) {
    const message = values[index];
    if (message !== undefined) cached.messages.push(message);
  }
  cached.length = values.length;
  return cached.messages;
}

/**
 * Checks the structure a hand-edited or loaded state must have (version, ids, links, head, nextStep
 * references), so a broken file fails with the JSON path at fault instead of deep inside a module.
 */
export function assertValidState(value: unknown, file?: string): asserts value is AgentState {
  const fail = (jsonPath: string, reason: string): never => {
    throw new InvalidAgentStateError({ jsonPath, reason, file });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('', 'expected a JSON object');
  }
  const violation = findJsonDepthViolation(value, MAX_STATE_DEPTH);
  if (violation !== undefined) fail(violation.jsonPath, depthReason(violation.maxDepth));
  const state = value as Partial<AgentState>;
  if (state.version !== AGENT_STATE_VERSION) {
    fail('/version', `expected ${AGENT_STATE_VERSION}, got ${JSON.stringify(state.version)}`);
  }
  if (!Array.isArray(state.nodes)) return fail('/nodes', 'expected an array');
  state.nodes.forEach((node: AgentNode, index) => {
    if (typeof node !== 'object' || node === null)
      fail(`/nodes/${index}`, 'expected a node object');
    if (node.id !== index) fail(`/nodes/${index}/id`, `expected ${index} (ids are continuous)`);
    if (node.parent !== null && !(Number.isInteger(node.parent) && node.parent < index)) {
      fail(`/nodes/${index}/parent`, 'expected null or the id of an earlier node');
    }
    if (!Array.isArray(node.children)) fail(`/nodes/${index}/children`, 'expected an array');
    checkNodeMessage(node.message, `/nodes/${index}/message`, fail);
    if (typeof node.metadata !== 'object' || node.metadata === null) {
      fail(`/nodes/${index}/metadata`, 'expected an object');
    }
  });
  if (state.head !== null && !(Number.isInteger(state.head) && state.nodes[state.head as number])) {
    fail('/head', 'expected null or the id of an existing node');
  }
  if (
    state.instances !== undefined &&
    !(Array.isArray(state.instances) && state.instances.every((id) => typeof id === 'string'))
  ) {
    fail('/instances', 'expected an array of instance ids (strings)');
  }
  const step = state.nextStep;
  if (typeof step !== 'object' || step === null || typeof step.module !== 'string') {
    return fail('/nextStep', 'expected { module, args }');
  }
  const modules = ['prompter', 'generator', 'discriminator', 'actor', 'done'];
  if (!modules.includes(step.module)) {
    fail('/nextStep/module', `expected one of ${modules.join(', ')}, got "${step.module}"`);
  }
  if (typeof step.args !== 'object' || step.args === null)
    fail('/nextStep/args', 'expected an object');
  if (step.module === 'actor') {
    const nodeId = step.args.nodeId;
    const target = Number.isInteger(nodeId) ? state.nodes[nodeId] : undefined;
    if (!target || target.message.type !== 'vessel') {
      fail('/nextStep/args/nodeId', 'expected the id of a node holding a vessel message');
    }
  }
  if (step.module === 'generator' && !Array.isArray(step.args.messages)) {
    fail('/nextStep/args/messages', 'expected an array of { role, content } messages');
  }
  if (step.module === 'discriminator' && !Array.isArray(step.args.options)) {
    fail('/nextStep/args/options', 'expected an array of vessel solutions');
  }
  if (typeof state.usage !== 'object' || state.usage === null) fail('/usage', 'expected an object');
  if (typeof state.limits !== 'object' || state.limits === null)
    fail('/limits', 'expected an object');
  if (!Array.isArray(state.chain)) fail('/chain', 'expected an array of module ids');
}

/** The message types a node may hold: the protocol's, and the assistant's Vessel choice. */
const NODE_MESSAGE_TYPES = [
  'system',
  'text',
  'data',
  'input',
  'state',
  'result',
  'vessel',
] as const;

/**
 * A node's message is a protocol message with its required fields, or the assistant's Vessel choice:
 * an unknown type would otherwise pass and crash the Prompter when it renders the node.
 */
function checkNodeMessage(
  message: unknown,
  jsonPath: string,
  fail: (jsonPath: string, reason: string) => never,
): void {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    fail(jsonPath, 'expected a message object');
  }
  const candidate = message as Record<string, unknown>;
  if (!(NODE_MESSAGE_TYPES as readonly unknown[]).includes(candidate.type)) {
    fail(
      `${jsonPath}/type`,
      `unknown message type ${JSON.stringify(candidate.type) ?? 'undefined'} (expected ${NODE_MESSAGE_TYPES.join(', ')})`,
    );
  }
  if (candidate.type !== 'vessel') {
    checkMessage(candidate, jsonPath, fail);
    return;
  }
  if (!Array.isArray(candidate.calls)) fail(`${jsonPath}/calls`, 'expected an array of Calls');
  (candidate.calls as unknown[]).forEach((call, index) => {
    if (typeof call !== 'object' || call === null || Array.isArray(call)) {
      fail(`${jsonPath}/calls/${index}`, 'expected a Call object');
    }
    if (typeof (call as { _tool?: unknown })._tool !== 'string') {
      fail(`${jsonPath}/calls/${index}/_tool`, 'expected a tool name string');
    }
  });
}
