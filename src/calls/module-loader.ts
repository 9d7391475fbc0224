import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { InvalidIdeaError } from '../errors/invalid-idea.error';
import { warnDeprecated } from '../internal/deprecation';
import { ModuleNotFoundError } from '../errors/module-not-found.error';
import { ModulePathError } from '../errors/module-path.error';
import type { Idea } from '../protocol/idea';
import { findIdeaInput } from '../protocol/invert-idea';
import { parseIdea } from '../protocol/parse-idea';
import { readTool } from '../protocol/read-tool';
import type { ToolSchema } from '../protocol/tool-schema';
import { fetchModuleText } from './module-fetch';
import { mergeUpfront } from './module-loader-upfront';
import { displayModuleId, isUrlReference, resolveModulePath } from './module-path';
import { bothNamesInCode } from '../protocol/protocol-vocabulary';

/** The `_module` value that runs a Call in an empty clean room instead of an Idea file (R-MOD-2). */
export const ANONYMOUS_MODULE = 'anonymous';

/** Options of a {@link ModuleLoader}. */
export interface ModuleLoaderOptions {
  /** Directory local module references resolve against and may not leave; default `process.cwd()`. */
  moduleRoot?: string;
  /** @deprecated Use `moduleRoot` (the one name of this option everywhere); still honoured, with a warning. */
  root?: string;
  /** Hosts (exact `hostname` or `host:port`) allowed to serve modules over http(s); default none. */
  allowedHosts?: string[];
  /** Timeout for loading a module URL, in ms; default 10 000. */
  timeoutMs?: number;
  /** Size cap for a module file or URL body, in bytes; default 1 MiB. */
  maxBytes?: number;
}

/** A module loaded and validated: its canonical id, the reference it was asked for and the Idea. */
export interface LoadedModule {
  /** Canonical id: the real absolute file path, or the URL. Used for caching and cycle detection. */
  id: string;
  /** The reference as written in `_module`. */
  reference: string;
  /** The validated Idea. */
  idea: Idea;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Loads module Ideas (R-MOD-6): local `.json` files inside `root` only, http(s) URLs only from
 * `allowedHosts` with a timeout and size cap. Each module is parsed and validated once and cached by
 * its canonical id (concurrent loads share one promise; failed loads are not cached).
 */
export class ModuleLoader {
  /** The absolute module root. */
  readonly root: string;
  private readonly allowedHosts: string[];
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly cache = new Map<string, Promise<Idea>>();

  constructor(options: ModuleLoaderOptions = {}) {
    if (options.root !== undefined) {
      warnDeprecated(
        'IDEACT_DEP_MODULE_LOADER_ROOT',
        'new ModuleLoader({ root }) is deprecated: use `moduleRoot`, the name createContainer, createAgent, new Executor and the CLI (--module-root) use.',
      );
    }
    this.root = path.resolve(options.moduleRoot ?? options.root ?? process.cwd());
    this.allowedHosts = [...(options.allowedHosts ?? [])];
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /**
   * Loads the Idea a `_module` reference names. Throws `ModulePathError`, `ModuleNotFoundError`,
   * `ModuleUrlError` or `InvalidIdeaError` (naming the file and JSON path).
   */
  async load(reference: string): Promise<LoadedModule> {
    const id = isUrlReference(reference)
      ? reference
      : await resolveModulePath(reference, this.root);
    let pending = this.cache.get(id);
    if (!pending) {
      pending = this.read(id);
      this.cache.set(id, pending);
      pending.catch(() => this.cache.delete(id));
    }
    return { id, reference, idea: await pending };
  }

  /**
   * Upfront resolution (R-MOD-4): for a Tool with a file/URL `_module`, returns a copy whose params
   * include the module's input schema (the module wins on conflicts) and whose `_output` is the
   * module's schema. Other Tools (inline, anonymous) are returned unchanged.
   */
  async resolveUpfront(tool: ToolSchema): Promise<ToolSchema> {
    const info = readTool(tool);
    if (info.module === undefined || info.module === ANONYMOUS_MODULE) return tool;
    const loaded = await this.load(info.module);
    return mergeUpfront(tool, loaded.idea, findIdeaInput(loaded.idea)?.schema);
  }

  /** Forgets every cached module (e.g. after editing Idea files in a long-running process). */
  clearCache(): void {
    this.cache.clear();
  }

  private async read(id: string): Promise<Idea> {
    const text = isUrlReference(id)
      ? await fetchModuleText(id, {
          allowedHosts: this.allowedHosts,
          timeoutMs: this.timeoutMs,
          maxBytes: this.maxBytes,
        })
      : await this.readFile(id);
    return parseIdea(parseJsonText(text, id), id);
  }

  private async readFile(file: string): Promise<string> {
    const shown = displayModuleId(file, this.root);
    let stat: Stats;
    try {
      stat = await fs.stat(file);
    } catch (error) {
      throw this.unreadable(shown, file, error);
    }
    if (!stat.isFile()) {
      throw new ModulePathError({
        path: shown,
        root: this.root,
        reason: stat.isDirectory()
          ? `"${file}" is a directory, not an Idea file`
          : `"${file}" is not a regular file`,
      });
    }
    if (stat.size > this.maxBytes) {
      throw new InvalidIdeaError({
        source: file,
        jsonPath: '',
        reason: `the file has ${stat.size} bytes, over the module size cap of ${this.maxBytes} bytes; make it smaller or raise \`maxBytes\``,
      });
    }
    try {
      return await fs.readFile(file, 'utf8');
    } catch (error) {
      throw this.unreadable(shown, file, error);
    }
  }

  /** A file that vanished is not found; one that cannot be read (permissions…) is a path error. */
  private unreadable(shown: string, file: string, error: unknown): Error {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return new ModuleNotFoundError({
        path: shown,
        resolvedPath: file,
        field: bothNamesInCode('delegateField'),
        cause: error,
      });
    }
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return new ModulePathError({
      path: shown,
      root: this.root,
      reason: `"${file}" cannot be read (${code})`,
      cause: error,
    });
  }
}

/** Parses JSON text, turning a syntax error into an `InvalidIdeaError` with line and column. */
function parseJsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(detail);
    let where = '';
    if (position && !/line \d+/.test(detail)) {
      const before = text.slice(0, Number(position[1]));
      const line = before.split('\n').length;
      const column = before.length - before.lastIndexOf('\n');
      where = ` (line ${line}, column ${column})`;
    }
    throw new InvalidIdeaError({
      source,
      jsonPath: '',
      reason: `the file is not valid JSON: ${detail.replace(/\s+/g, ' ')}${where}; fix the JSON syntax`,
      cause: error,
    });
  }
}
