import type { AgentNode, AgentState, NodeMessage } from './agent-state';

interface Entry<T> {
  nodes: AgentNode[];
  messages: NodeMessage[];
  values: T[];
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
    if (entry === undefined || !extendsEntry(entry, path)) {
      entry = { nodes: [], messages: [], values: [] };
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
    if (entry !== undefined && index < entry.values.length) entry.values[index] = value;
  }
}

function extendsEntry<T>(entry: Entry<T>, path: readonly AgentNode[]): boolean {
  if (entry.nodes.length > path.length) return false;
  for (let index = 0; index < entry.nodes.length; index++) {
    const node = path[index] as AgentNode;
    if (node !== entry.nodes[index] || node.message !== entry.messages[index]) return false;
  }
  return true;
}
