import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TypeScriptLoaderMissingError } from '../errors/typescript-loader-missing.error';

/** The extensions of TypeScript modules a `--config` may name. */
export const TYPESCRIPT_EXTENSIONS: readonly string[] = ['.ts', '.mts', '.cts'];

/**
 * The loader ideact compiles a TypeScript config with: tsx (esbuild; what most projects run
 * TypeScript with). It records no decorator metadata, so a decorated config relies on its decorators
 * stating the types (docs/decorators.md, "Toolchains"). jiti is not offered: 2.7 cannot compile a
 * decorated definite-assignment field (`@IsString() city!: string`), the shape of every ideact Tool.
 */
export const TYPESCRIPT_LOADER = 'tsx';

/** True when `file` is a TypeScript module (by its extension). */
export function isTypeScriptModule(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

/** The registration in progress or done: once per process. */
let registered: Promise<void> | undefined;

/**
 * Registers tsx — resolved from the user's project: the config's folder upwards, then the working
 * directory; never a copy of ideact's own, so the project chooses (and pins) it — for this process,
 * as `node --import tsx` does: its CommonJS hook (`require` of .ts and .cts) and its ES module hooks
 * (`import` of .mts, and of .ts in a `"type": "module"` package). Registered globally rather than
 * through a namespaced `tsImport`, which would load a second copy of every package the config
 * imports (class-transformer, typedi) and lose their metadata. tsx reads the tsconfig.json of the
 * working directory (or `TSX_TSCONFIG_PATH`). Throws {@link TypeScriptLoaderMissingError} when tsx is
 * not installed there.
 */
export async function registerTypeScriptLoader(file: string): Promise<void> {
  if (registered !== undefined) return registered;
  const origins = [...new Set([path.dirname(file), process.cwd()])];
  for (const origin of origins) {
    const entries = tsxApiEntries(origin);
    if (entries === undefined) continue;
    registered = register(entries);
    return registered;
  }
  throw new TypeScriptLoaderMissingError({
    file,
    packages: [TYPESCRIPT_LOADER],
    searchedFrom: origins,
  });
}

async function register(entries: { commonJs: string; esModule: string }): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- tsx of the user's project
  (require(entries.commonJs) as { register(): unknown }).register();
  const esm = (await importUrl(pathToFileURL(entries.esModule).href)) as { register(): unknown };
  esm.register();
}

/**
 * The files of tsx's `tsx/cjs/api` (for `require`) and `tsx/esm/api` (for `import`: its CommonJS
 * build of that API registers its hooks from a wrong path), as tsx's `exports` map names them,
 * resolved from `folder`.
 */
function tsxApiEntries(folder: string): { commonJs: string; esModule: string } | undefined {
  let manifest: string;
  try {
    // createRequire needs a file name; it need not exist.
    manifest = createRequire(path.join(folder, 'noop.js')).resolve('tsx/package.json');
  } catch {
    return undefined;
  }
  const exportsMap = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown })
    .exports as Record<string, unknown> | undefined;
  const commonJs = conditionTarget(exportsMap?.['./cjs/api'], 'require');
  const esModule = conditionTarget(exportsMap?.['./esm/api'], 'import');
  if (commonJs === undefined || esModule === undefined) return undefined;
  return {
    commonJs: path.join(path.dirname(manifest), commonJs),
    esModule: path.join(path.dirname(manifest), esModule),
  };
}

/** The `condition` (then `default`) target of one `exports` entry. */
function conditionTarget(entry: unknown, condition: string): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const conditions = entry as Record<string, unknown>;
  return conditionTarget(conditions[condition] ?? conditions.default, condition);
}

/** A real dynamic import (TypeScript would turn `import()` into `require()` for CommonJS output). */
const importUrl = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;
