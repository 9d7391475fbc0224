/**
 * Loads the built ideact package (`dist/`, built by `npm run build` at the root) and reports which of
 * the APIs a workload needs are missing, so a workload prints `n/a (reason)` instead of a fake figure.
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

let cached;

/** The built package's exports, or `{ loadError }` when it cannot be required. */
export function loadIdeact() {
  if (cached) return cached;
  if (!existsSync(DIST_ENTRY)) {
    cached = { loadError: 'dist/index.js is missing (run `npm run build`)' };
    return cached;
  }
  try {
    cached = createRequire(import.meta.url)(DIST_ENTRY);
  } catch (error) {
    cached = {
      loadError: `require(dist/index.js) failed: ${String(error.message).split('\n')[0]}`,
    };
  }
  return cached;
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
