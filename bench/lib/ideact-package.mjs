/**
 * Loads the ideact package the benchmarks measure and reports which of the APIs a workload needs are
 * missing, so a workload prints `n/a (reason)` instead of a fake figure. By default that is the root's
 * build (`dist/`, built by `npm run build`); `IDEACT_BENCH_PACKAGE=<app>/node_modules/ideact` measures
 * an installed package instead, resolved by name as a user's `require('ideact')` is (`npm run
 * bench:compare` installs the packed tarballs of two builds and points each child at one of them).
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (bench/..). */
export const ROOT = path.resolve(here, '..', '..');
/** The built package entry point. */
export const DIST_ENTRY = path.join(ROOT, 'dist', 'index.js');
/** The installed package folder to measure instead of dist/ (IDEACT_BENCH_PACKAGE), or undefined. */
export const PACKAGE_DIRECTORY = process.env.IDEACT_BENCH_PACKAGE
  ? path.resolve(process.env.IDEACT_BENCH_PACKAGE)
  : undefined;

const cache = new Map();

/**
 * Requires `specifier` ('ideact' or 'ideact/testing') from the measured package: by name from the
 * installed folder (its `exports` map decides the file), or the matching dist/ file; `{ loadError }`
 * when that fails.
 */
function load(specifier) {
  if (cache.has(specifier)) return cache.get(specifier);
  let loaded;
  if (PACKAGE_DIRECTORY !== undefined) {
    try {
      loaded = createRequire(path.join(PACKAGE_DIRECTORY, 'package.json'))(specifier);
    } catch (error) {
      loaded = {
        loadError: `require('${specifier}') from ${PACKAGE_DIRECTORY} failed: ${String(error.message).split('\n')[0]}`,
      };
    }
  } else {
    const relative = specifier === 'ideact' ? 'index.js' : 'testing/index.js';
    const file = path.join(ROOT, 'dist', relative);
    if (!existsSync(file)) {
      loaded = { loadError: `dist/${relative} is missing (run \`npm run build\`)` };
    } else {
      try {
        loaded = createRequire(import.meta.url)(file);
      } catch (error) {
        loaded = {
          loadError: `require(dist/${relative}) failed: ${String(error.message).split('\n')[0]}`,
        };
      }
    }
  }
  cache.set(specifier, loaded);
  return loaded;
}

/** The measured package's exports (`ideact`), or `{ loadError }` when it cannot be required. */
export function loadIdeact() {
  return load('ideact');
}

/** The measured package's `ideact/testing` exports, or `{ loadError }` when it cannot be required. */
export function loadIdeactTesting() {
  return load('ideact/testing');
}

/** `undefined` when every named export exists, else the reason (for `n/a (reason)`). */
export function missingExports(names) {
  const ideact = loadIdeact();
  if (ideact.loadError) return ideact.loadError;
  const missing = names.filter((name) => ideact[name] === undefined);
  return missing.length === 0 ? undefined : `ideact does not export ${missing.join(', ')} yet`;
}

/** A Usage with no tokens (instant providers spend none). */
export const NO_USAGE = Object.freeze({ inputTokens: 0, outputTokens: 0, cachedTokens: 0 });
