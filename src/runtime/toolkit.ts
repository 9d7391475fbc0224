import { InvalidSchemaError } from '../errors/invalid-schema.error';
import { readTool, toolName } from '../protocol/read-tool';
import type { ToolSchema } from '../protocol/tool-schema';
import { ModuleLoader } from './module-loader';

/** Options of a {@link Toolkit}. */
export interface ToolkitOptions {
  /** The Tools, as declared (decorators, inverted Ideas, hand-written schemas). */
  tools: ToolSchema[];
  /** Loads modules of upfront Tools; default: a loader rooted at `process.cwd()`. */
  loader?: ModuleLoader;
}

/**
 * The set of Tools an agent offers (R-LOOP-2). Tools with `_resolution: 'upfront'` are resolved
 * through the loader once, on first `list()`/`get()` (R-MOD-4), so the parent LLM sees the module's
 * exact input and output contract; others are returned as declared.
 */
export class Toolkit {
  private readonly declared: ToolSchema[];
  private readonly loader: ModuleLoader;
  private resolved?: Promise<ToolSchema[]>;

  constructor(options: ToolkitOptions) {
    this.declared = [...options.tools];
    this.loader = options.loader ?? new ModuleLoader();
    const seen = new Set<string>();
    for (const tool of this.declared) {
      const name = toolName(tool);
      if (seen.has(name)) {
        throw new InvalidSchemaError({
          message: `Two tools are named "${name}". Tool names (_tool) must be unique; rename one of them.`,
        });
      }
      seen.add(name);
    }
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
