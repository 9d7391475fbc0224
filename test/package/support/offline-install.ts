import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Installs the packed tarball of ideact (and chosen extras) into `app` as `npm ci --omit=dev` does in
 * a user's project — but from this repository's lockfile, offline: a test may not reach the registry,
 * and after `npm ci` npm's cache holds the tarballs of every locked package (by integrity) but not the
 * registry's package documents a range install (`npm i ideact`) would need. The app's lockfile is the
 * subtree of ours that ideact's production dependencies (and the extras) reach, at the same versions
 * and paths, so what gets installed is exactly what `npm i` of the tarball resolves to today.
 */
const ROOT = join(__dirname, '..', '..', '..');

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

/** Writes `app`'s package.json and package-lock.json and runs `npm ci --omit=dev --offline` there. */
export function installPackedOffline(app: string, tarball: string, extras: string[] = []): void {
  const repoLock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const packages: Record<string, LockEntry> = {};

  /** The locked location `name` resolves to from `from` (node's lookup up the folders). */
  const locate = (from: string, name: string): string | undefined => {
    for (let base = from; ;) {
      const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
      if (repoLock.packages[candidate] !== undefined) return candidate;
      if (base === '') return undefined;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut < 0 ? '' : base.slice(0, cut);
    }
  };
  const include = (from: string, name: string, required: boolean): void => {
    const location = locate(from, name);
    if (location === undefined) {
      if (required) throw new Error(`package-lock.json has no ${name} reachable from "${from}"`);
      return;
    }
    if (packages[location] !== undefined) return;
    const {
      dev: _dev,
      peer: _peer,
      devOptional: _devOptional,
      ...entry
    } = repoLock.packages[location] as LockEntry;
    packages[location] = entry;
    for (const dependency of Object.keys(entry.dependencies ?? {}))
      include(location, dependency, true);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) {
      include(location, dependency, false);
    }
    for (const dependency of Object.keys(entry.peerDependencies ?? {})) {
      if (entry.peerDependenciesMeta?.[dependency]?.optional !== true) {
        include(location, dependency, true);
      }
    }
  };
  // ideact's own dependencies resolve from the app's root node_modules, as npm hoists them.
  for (const dependency of Object.keys(manifest.dependencies ?? {})) include('', dependency, true);
  const extraVersions: Record<string, string> = {};
  for (const extra of extras) {
    include('', extra, true);
    extraVersions[extra] = packages[`node_modules/${extra}`]?.version as string;
  }

  const tarballName = basename(tarball);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const appManifest = {
    name: 'app',
    version: '1.0.0',
    type: 'module',
    dependencies: { ideact: `file:${tarballName}`, ...extraVersions },
  };
  const lock = {
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies: appManifest.dependencies },
      'node_modules/ideact': {
        version: manifest.version,
        resolved: `file:${tarballName}`,
        integrity,
        dependencies: manifest.dependencies,
        ...(manifest.bin === undefined ? {} : { bin: manifest.bin }),
        ...(manifest.engines === undefined ? {} : { engines: manifest.engines }),
        peerDependencies: manifest.peerDependencies,
        peerDependenciesMeta: manifest.peerDependenciesMeta,
      },
      ...packages,
    },
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(appManifest, null, 2));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock, null, 2));
  execFileSync(
    'npm',
    ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    { cwd: app, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } },
  );
}
