import type { AgentNode, AgentState, NodeMessage } from './agent-state';
import { editCount } from './state-edits';

interface Entry<T> {
  nodes: AgentNode[];
  messages: NodeMessage[];
  values: T[];
  /** Bumped by every `replace`: the values array is the same, an earlier value is not. */
  version: number;
  /** The state's edit count when the entry was last checked node by node ({@link editCount}). */
  checkedAt: number;
}

/**
 * A per-node value for every node of a path, kept per state and extended as the path grows, so a
 * turn maps only the nodes added since the last one. A node whose message was replaced (or a path
 * that no longer extends the cached one) maps everything again: checked by identity, node by node.
 * @internal
 */
export class PathMemo<T> {
  private readonly entries = new WeakMap<AgentState, Entry<T>>();

  constructor(private readonly map: (node: AgentNode, state: AgentState) => T) {}

  /** The values for `path` (a path of `state`, root first); read-only: copy it to change it. */
  values(state: AgentState, path: readonly AgentNode[]): readonly T[] {
    let entry = this.entries.get(state);
    if (entry === undefined || !extendsEntry(entry, path, editCount(state))) {
      entry = { nodes: [], messages: [], values: [], version: 0, checkedAt: editCount(state) };
      this.entries.set(state, entry);
    }
    for (let index = entry.nodes.length; index < path.length; index++) {
      const node = path[index] as AgentNode;
      entry.nodes.push(node);
      entry.messages.push(node.message);
      entry.values.push(this.map(node, state));
    }
    return entry.values;
  }

  /** Replaces the value kept for the node at `index` of the last path (e.g. a trimmed result). */
  replace(state: AgentState, index: number, value: T): void {
    const entry = this.entries.get(state);
    if (entry !== undefined && index < entry.values.length) {
      entry.values[index] = value;
      entry.version += 1;
    }
  }

  /**
   * How often a value of the state's last path was replaced: with the identity of the array
   * `values` returned, it tells a reader that only values were appended since it last looked.
   */
  version(state: AgentState): number {
    return this.entries.get(state)?.version ?? 0;
  }
}

/**
 * True when `path` extends the entry's nodes: the same node objects with the same messages. While
 * no code that may edit the state ran since the entry was checked, the entry's last node is enough
 * (a path is a chain of parent links: its prefix up to that node is the entry's).
 */
function extendsEntry<T>(entry: Entry<T>, path: readonly AgentNode[], edits: number): boolean {
  const count = entry.nodes.length;
  if (count > path.length) return false;
  if (count === 0) return true;
  const last = count - 1;
  if (path[last] !== entry.nodes[last] || path[last]?.message !== entry.messages[last])
    return false;
  if (entry.checkedAt === edits) return true;
  for (let index = 0; index < last; index++) {
    const node = path[index] as AgentNode;
    if (node !== entry.nodes[index] || node.message !== entry.messages[index]) return false;
  }
  entry.checkedAt = edits;
  return true;
}
