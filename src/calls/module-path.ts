import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ModuleNotFoundError } from '../errors/module-not-found.error';
import { ModulePathError } from '../errors/module-path.error';
import { bothNamesInCode } from '../protocol/protocol-vocabulary';

/** True when `reference` is written as a URL (`scheme://…`) rather than a file path. @internal */
export function isUrlReference(reference: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(reference);
}

/**
 * True when `child` is `parent` itself or lies inside it (both absolute, normalised). `..` counts only
 * as a whole path segment, so a file named `..notes.json` inside the root is inside it.
 */
function isInside(parent: string, child: string): boolean {
  return !leavesRoot(path.relative(parent, child));
}

/** True when a `path.relative` result climbs out of its base (a leading `..` segment) or is absolute. */
function leavesRoot(relative: string): boolean {
  return path.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${path.sep}`);
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
  if (reference.includes('\0')) {
    throw new ModulePathError({
      path: reference,
      root,
      reason: 'it contains a NUL byte (\\0), which no file path may hold',
    });
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
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent segment is a file (`notes.json/x.json`), so there is no such file either.
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new ModuleNotFoundError({
        path: reference,
        resolvedPath: candidate,
        field: bothNamesInCode('delegateField'),
        cause: error,
      });
    }
    throw new ModulePathError({
      path: reference,
      root: absoluteRoot,
      reason: `"${candidate}" cannot be resolved (${code ?? String(error)})`,
      cause: error,
    });
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
  return leavesRoot(relative) ? id : relative.split(path.sep).join('/');
}
