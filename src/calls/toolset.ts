import { latestToolDefinitions } from '../protocol/tool-override';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ActivityFunction } from './activity';

/**
 * A live group of Tools with their Activities, given in `tools` next to `@Tool` classes and
 * ToolSchemas (`new Executor`, `createContainer`, `createAgent`): e.g. an MCP server's tools
 * (`mcpTools`). Its list may change while a run goes on; the Executor and the agent's Toolkit read
 * it again before each Call and each request, so a running agent sees the new list at its next turn.
 */
export interface Toolset {
  /**
   * The Tools as now known. Must be a NEW array whenever the list changed and the SAME array while
   * it did not: users compare by identity to learn that it changed (and cache by it).
   */
  readonly tools: readonly ToolSchema[];
  /** The Activities running those Tools, by Activity name (a Tool's `_activity`, else its name, R-TOOL-2). */
  readonly activities: Readonly<Record<string, ActivityFunction>>;
  /**
   * Optional: settles once a change of the list that is known to be under way (e.g. a refetch after a
   * server's `tools/list_changed`) is applied; the Toolkit awaits it before listing the Tools.
   */
  settled?(): Promise<void>;
}

/** True for a {@link Toolset} (an object with a `tools` array and an `activities` map), not a ToolSchema or class. */
export function isToolset(value: unknown): value is Toolset {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Toolset>;
  return (
    Array.isArray(candidate.tools) &&
    typeof candidate.activities === 'object' &&
    candidate.activities !== null
  );
}

/** Splits a `tools` option into its Toolsets and the other entries (classes, ToolSchemas), in order. @internal */
export function splitToolsets<T>(entries: readonly (T | Toolset)[]): {
  toolsets: Toolset[];
  others: T[];
} {
  const toolsets: Toolset[] = [];
  const others: T[] = [];
  if (!Array.isArray(entries)) return { toolsets, others: entries as unknown as T[] };
  for (const entry of entries) {
    if (isToolset(entry)) toolsets.push(entry);
    else others.push(entry);
  }
  return { toolsets, others };
}

/**
 * The fixed Tools followed by each Toolset's current ones; a name given twice keeps its later
 * definition (R-TOOL-5), so a Toolset's Tool replaces a fixed one of the same name. @internal
 */
export function combinedTools(
  fixed: readonly ToolSchema[],
  toolsets: readonly Toolset[],
): ToolSchema[] {
  if (toolsets.length === 0) return [...fixed];
  return latestToolDefinitions([...fixed, ...toolsets.flatMap((toolset) => toolset.tools)]);
}

/**
 * Remembers the `tools` arrays of some Toolsets, to tell when one of them changed (by identity).
 * @internal
 */
export class ToolsetWatch {
  private seen: ReadonlyArray<readonly ToolSchema[]>;

  constructor(private readonly toolsets: readonly Toolset[]) {
    this.seen = toolsets.map((toolset) => toolset.tools);
  }

  /** True (once) when a Toolset's list is another array than at the last check. */
  changed(): boolean {
    // Checked before every Call: no array unless something changed (issue 28).
    const toolsets = this.toolsets;
    let changed = false;
    for (let index = 0; index < toolsets.length; index++) {
      if (toolsets[index]!.tools !== this.seen[index]) {
        changed = true;
        break;
      }
    }
    if (changed) this.seen = toolsets.map((toolset) => toolset.tools);
    return changed;
  }

  /** Waits for the changes under way in every Toolset that announces them (`settled`). */
  async settled(): Promise<void> {
    await Promise.all(this.toolsets.map((toolset) => toolset.settled?.()));
  }
}
