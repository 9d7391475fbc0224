import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContainerInstance } from 'typedi';
import { TypeScriptLoaderMissingError } from '../errors/typescript-loader-missing.error';
import type { IdeactConfig } from './ideact-config';
import { isTypeScriptModule, registerTypeScriptLoader } from './typescript-loader';

/**
 * What a `--config FILE` module gives (`ideact dev`, `ideact mcp serve`): a container, a
 * `createContainer` configuration, or why it gives neither. One loader, so both commands accept the
 * same modules; each caller turns a failure into its own typed error.
 */
export type ConfigModule =
  | { kind: 'container'; container: ContainerInstance }
  | { kind: 'config'; config: IdeactConfig }
  /** It loaded but exports neither a container nor a configuration with a `tools` array. */
  | { kind: 'unusable' }
  /** It did not load (a missing file, a syntax error, a throw at import). */
  | { kind: 'unloadable'; error: unknown };

/**
 * Loads a config module: CommonJS through `require`, ES modules (`.mjs`, or `.js` of a
 * `"type": "module"` package) through the native `import()`, TypeScript (`.ts`, `.cts`, and `.mts` as an ES module) the same way once
 * tsx from the user's project is registered (`registerTypeScriptLoader`; without it, a
 * {@link TypeScriptLoaderMissingError} is thrown). Looks at `module.exports`, then its `default`,
 * `container` and `config` exports; an exported function is called (and awaited) to make the
 * container or configuration.
 */
export async function loadConfigModule(file: string): Promise<ConfigModule> {
  let exported: unknown;
  try {
    exported = await importUserModule(path.resolve(file));
  } catch (error) {
    // The project lacks a TypeScript loader: a setup problem with its own fix, not the module's.
    if (TypeScriptLoaderMissingError.isInstance(error)) throw error;
    return { kind: 'unloadable', error };
  }
  const candidates = [
    exported,
    ...['default', 'container', 'config'].map((key) => pick(exported, key)),
  ];
  for (let candidate of candidates) {
    if (typeof candidate === 'function' && !isContainer(candidate)) {
      try {
        candidate = await (candidate as () => unknown)();
      } catch (error) {
        return { kind: 'unloadable', error };
      }
    }
    if (isContainer(candidate)) return { kind: 'container', container: candidate };
    if (isConfig(candidate)) return { kind: 'config', config: candidate };
  }
  return { kind: 'unusable' };
}

/** A typedi container, recognised by shape (so one from another copy of typedi counts too). */
export function isContainer(value: unknown): value is ContainerInstance {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ContainerInstance>;
  return typeof candidate.get === 'function' && typeof candidate.has === 'function';
}

/**
 * Imports a user's module by absolute path the way a config module is loaded (CommonJS, ES module, or
 * TypeScript through the project's tsx): shared with eval files (`ideact eval x.eval.ts`).
 */
export async function importUserModule(absolute: string): Promise<unknown> {
  if (isTypeScriptModule(absolute)) await registerTypeScriptLoader(absolute);
  if (!absolute.endsWith('.mjs') && !absolute.endsWith('.mts')) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a user's CommonJS (or registered TS) module
      return require(absolute) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ESM') throw error;
    }
  }
  // A real dynamic import (TypeScript would turn `import()` into `require()` for CommonJS output).
  const load = new Function('specifier', 'return import(specifier)') as (
    specifier: string,
  ) => Promise<unknown>;
  return load(pathToFileURL(absolute).href);
}

function pick(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function isConfig(value: unknown): value is IdeactConfig {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as IdeactConfig).tools)
  );
}
