import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ModuleNotFoundError } from '../errors/module-not-found.error';
import { ModulePathError } from '../errors/module-path.error';

/** True when `reference` is written as a URL (`scheme://…`) rather than a file path. @internal */
export function isUrlReference(reference: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(reference);
}

/** True when `child` is `parent` itself or lies inside it (both absolute, normalised). */
function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Resolves a local module reference to the canonical (real) path of an Idea file inside `root`
 * (R-MOD-6): `.json` only, no `..` or absolute path leaving the root, no symlink whose target leaves it.
 * Relative references resolve against the root, also when written inside another module file.
 * @internal
 */
export async function resolveModulePath(reference: string, root: string): Promise<string> {
  if (reference.trim() === '') {
    throw new ModulePathError({ path: reference, root, reason: 'the reference is empty' });
  }
  if (path.extname(reference).toLowerCase() !== '.json') {
    throw new ModulePathError({
      path: reference,
      root,
      reason: 'only Idea files ending in ".json" can be modules',
    });
  }
  const absoluteRoot = path.resolve(root);
  const candidate = path.resolve(absoluteRoot, reference);
  if (!isInside(absoluteRoot, candidate)) {
    throw new ModulePathError({
      path: reference,
      root: absoluteRoot,
      reason: `it resolves to "${candidate}", outside the module root`,
    });
  }
  let realRoot: string;
  try {
    realRoot = await fs.realpath(absoluteRoot);
  } catch (error) {
    throw new ModulePathError({
      path: reference,
      root: absoluteRoot,
      reason: 'the module root does not exist',
      cause: error,
    });
  }
  let realFile: string;
  try {
    realFile = await fs.realpath(candidate);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ModuleNotFoundError({ path: reference, resolvedPath: candidate, cause: error });
    }
    throw error;
  }
  if (!isInside(realRoot, realFile)) {
    throw new ModulePathError({
      path: reference,
      root: absoluteRoot,
      reason: `it is a symbolic link to "${realFile}", outside the module root`,
    });
  }
  return realFile;
}

/** Shows a module id relative to the root when it lies inside it (for messages and cycle chains). @internal */
export function displayModuleId(id: string, root: string): string {
  if (isUrlReference(id) || !path.isAbsolute(id)) return id;
  const relative = path.relative(root, id);
  return relative.startsWith('..') || path.isAbsolute(relative)
    ? id
    : relative.split(path.sep).join('/');
}
