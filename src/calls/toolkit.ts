import { readTool, toolName } from '../protocol/read-tool';
import { latestToolDefinitions } from '../protocol/tool-override';
import type { ToolSchema } from '../protocol/tool-schema';
import { ModuleLoader } from './module-loader';
import { combinedTools, splitToolsets, ToolsetWatch, type Toolset } from './toolset';

/** Options of a {@link Toolkit}. */
export interface ToolkitOptions {
  /**
   * The Tools, as declared (decorators, inverted Ideas, hand-written schemas), and Toolsets whose
   * current Tools follow them; a name given twice keeps its later definition.
   */
  tools: Array<ToolSchema | Toolset>;
  /** Loads modules of upfront Tools; default: a loader rooted at `process.cwd()`. */
  loader?: ModuleLoader;
}

/**
 * The set of Tools an agent offers (R-LOOP-2). Tools with `_resolution: 'upfront'` are resolved
 * through the loader once, on first `list()`/`get()` (R-MOD-4), so the parent LLM sees the module's
 * exact input and output contract; others are returned as declared. A Tool name defined twice keeps
 * its later definition (R-TOOL-5).
 */
export class Toolkit {
  private readonly fixed: ToolSchema[];
  private readonly toolsets: Toolset[];
  private readonly watch: ToolsetWatch;
  private declared: ToolSchema[];
  private readonly loader: ModuleLoader;
  private resolved?: Promise<ToolSchema[]>;
  /** The resolved list, once known and while it is current (what `current()` answers). */
  private known?: readonly ToolSchema[];

  constructor(options: ToolkitOptions) {
    const { toolsets, others } = splitToolsets(options.tools);
    // R-TOOL-5: a name defined twice keeps its later definition (before: InvalidSchemaError).
    this.fixed = latestToolDefinitions(others);
    this.toolsets = toolsets;
    this.watch = new ToolsetWatch(toolsets);
    this.declared = combinedTools(this.fixed, toolsets);
    this.loader = options.loader ?? new ModuleLoader();
  }

  /**
   * Every Tool, upfront modules resolved (cached; a failed resolution is retried on the next call).
   * Toolsets are read again each time (after their pending changes settled), so a changed list shows.
   */
  async list(): Promise<ToolSchema[]> {
    if (this.toolsets.length > 0) {
      await this.watch.settled();
      this.takeToolsetChanges();
    }
    if (!this.resolved) {
      const pending = Promise.all(
        this.declared.map((tool) =>
          readTool(tool).resolution === 'upfront' ? this.loader.resolveUpfront(tool) : tool,
        ),
      );
      this.resolved = pending;
      pending.then(
        (tools) => {
          if (this.resolved === pending) this.known = tools;
        },
        () => {
          if (this.resolved === pending) this.resolved = undefined;
        },
      );
    }
    return this.resolved.then((tools) => [...tools]);
  }

  /**
   * The Tools as `list()` last resolved them, without waiting, when nothing can have changed since
   * (no Toolsets, upfront modules resolved): what a turn reads on the hot path (issue 28). Undefined
   * otherwise: call `list()`. Read-only: copy it to change it.
   */
  current(): readonly ToolSchema[] | undefined {
    return this.toolsets.length === 0 ? this.known : undefined;
  }

  /** The Tool named `name` (resolved like in `list()`), or undefined. */
  async get(name: string): Promise<ToolSchema | undefined> {
    const tools = await this.list();
    return tools.find((tool) => toolName(tool) === name);
  }

  /** The Tool names, in declaration order (no module loading needed). */
  names(): string[] {
    this.takeToolsetChanges();
    return this.declared.map((tool) => toolName(tool));
  }

  /** Rebuilds the declared list when a Toolset's list is a new array (dropping the resolved cache). */
  private takeToolsetChanges(): void {
    if (!this.watch.changed()) return;
    this.declared = combinedTools(this.fixed, this.toolsets);
    this.resolved = undefined;
    this.known = undefined;
  }
}
