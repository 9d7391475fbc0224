import { readTool, toolName } from '../protocol/read-tool';
import { latestToolDefinitions } from '../protocol/tool-override';
import type { ToolSchema } from '../protocol/tool-schema';
import { ModuleLoader } from './module-loader';

/** Options of a {@link Toolkit}. */
export interface ToolkitOptions {
  /** The Tools, as declared (decorators, inverted Ideas, hand-written schemas); a name given twice keeps its later definition. */
  tools: ToolSchema[];
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
  private readonly declared: ToolSchema[];
  private readonly loader: ModuleLoader;
  private resolved?: Promise<ToolSchema[]>;

  constructor(options: ToolkitOptions) {
    // R-TOOL-5: a name defined twice keeps its later definition (before: InvalidSchemaError).
    this.declared = latestToolDefinitions(options.tools);
    this.loader = options.loader ?? new ModuleLoader();
  }

  /** Every Tool, upfront modules resolved (cached; a failed resolution is retried on the next call). */
  list(): Promise<ToolSchema[]> {
    if (!this.resolved) {
      const pending = Promise.all(
        this.declared.map((tool) =>
          readTool(tool).resolution === 'upfront' ? this.loader.resolveUpfront(tool) : tool,
        ),
      );
      this.resolved = pending;
      pending.catch(() => {
        if (this.resolved === pending) this.resolved = undefined;
      });
    }
    return this.resolved.then((tools) => [...tools]);
  }

  /** The Tool named `name` (resolved like in `list()`), or undefined. */
  async get(name: string): Promise<ToolSchema | undefined> {
    const tools = await this.list();
    return tools.find((tool) => toolName(tool) === name);
  }

  /** The Tool names, in declaration order (no module loading needed). */
  names(): string[] {
    return this.declared.map((tool) => toolName(tool));
  }
}
