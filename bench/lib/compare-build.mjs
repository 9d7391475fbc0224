/**
 * The two sides of `npm run bench:compare` (issue 28) as users get them: a git ref built in a temp
 * folder and packed (cached by commit under the OS temp folder, so a second compare against the same
 * commit does not rebuild), the working tree built and packed as it is (uncommitted changes
 * included), and each tarball installed into its own fresh app folder.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Everything bench:compare keeps or makes: the ref builds (by commit) and the per-run app folders. */
export const COMPARE_HOME = path.join(os.tmpdir(), 'ideact-bench-compare');
/** The quiet flags of every npm command here (no audit, no fund: no requests beyond the registry). */
const NPM_QUIET = ['--no-audit', '--no-fund'];

/** A side that could not be built, packed or installed; `log` is the file with the commands' output. */
export class SideBuildError extends Error {
  constructor(message, log) {
    super(log ? `${message} (output: ${log})` : message);
    this.name = 'SideBuildError';
    this.log = log;
  }
}

/** Runs `command` in `cwd`, appending its output to `log`; throws SideBuildError when it fails. */
function run(command, args, { cwd, log, input, what }) {
  appendFileSync(log, `\n$ (${cwd}) ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  appendFileSync(log, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.status !== 0) {
    const reason = result.error?.message ?? `exit ${result.status}`;
    const tail = `${result.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new SideBuildError(`${what} failed: ${reason}${tail ? `: ${tail}` : ''}`, log);
  }
  return result.stdout;
}

/** Runs git in `root` and returns its trimmed output (throws with git's message on failure). */
export function git(root, args) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new SideBuildError(`git ${args.join(' ')}: ${(result.stderr || '').trim()}`);
  }
  return result.stdout.trim();
}

/** The commit `ref` names (full hash) and its one-line description, or a SideBuildError. */
export function resolveRef(root, ref) {
  const check = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  });
  if (check.status !== 0) {
    throw new SideBuildError(
      `"${ref}" names no commit in ${root}: pass a commit, tag or branch (e.g. HEAD~1, main, 982f366)`,
    );
  }
  const commit = check.stdout.trim();
  return { commit, description: git(root, ['log', '-1', '--format=%h %s', commit]) };
}

/**
 * `npm run build` then `npm pack` in `root` (whatever its package.json's scripts say) into `destination`;
 * returns the tarball's path.
 */
function buildAndPack(root, destination, log) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (manifest.scripts?.build)
    run(NPM, ['run', 'build'], { cwd: root, log, what: 'npm run build' });
  mkdirSync(destination, { recursive: true });
  const output = run(NPM, ['pack', '--json', '--pack-destination', destination], {
    cwd: root,
    log,
    what: 'npm pack',
  });
  const [packed] = JSON.parse(output.slice(output.indexOf('[')));
  const tarball = path.join(destination, packed.filename);
  if (!existsSync(tarball)) throw new SideBuildError(`npm pack wrote no ${tarball}`, log);
  return tarball;
}

/**
 * The packed tarball of `commit`, from the cache (`<COMPARE_HOME>/builds/<commit>/`) or built now:
 * `git archive` into a temp folder, `npm ci` (scripts allowed: the ref's own `allowScripts` decides),
 * `npm run build`, `npm pack`; the cache entry appears only once complete (renamed into place), and
 * the source folder is removed after packing. Returns `{ tarball, cached, folder }`.
 */
export function refTarball(root, commit, say) {
  const builds = path.join(COMPARE_HOME, 'builds');
  const folder = path.join(builds, commit);
  const existing = existsSync(folder)
    ? readdirSync(folder).find((name) => name.endsWith('.tgz'))
    : undefined;
  if (existing) return { tarball: path.join(folder, existing), cached: true, folder };
  const partial = path.join(builds, `${commit}.partial-${process.pid}`);
  rmSync(partial, { recursive: true, force: true });
  const source = path.join(partial, 'source');
  mkdirSync(source, { recursive: true });
  const log = path.join(partial, 'build.log');
  writeFileSync(log, `bench:compare build of ${commit}\n`);
  say(`building ${commit.slice(0, 12)} in ${source} (log: ${log}) …`);
  const archive = spawnSync('git', ['archive', '--format=tar', commit], {
    cwd: root,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (archive.status !== 0) {
    throw new SideBuildError(`git archive ${commit}: ${String(archive.stderr).trim()}`, log);
  }
  run('tar', ['-x', '-C', source], { cwd: partial, log, input: archive.stdout, what: 'tar -x' });
  run(NPM, ['ci', '--ignore-scripts=false', '--prefer-offline', ...NPM_QUIET], {
    cwd: source,
    log,
    what: 'npm ci',
  });
  const tarball = buildAndPack(source, partial, log);
  rmSync(source, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  return { tarball: path.join(folder, path.basename(tarball)), cached: false, folder };
}

/** The working tree built (`npm run build`) and packed as it is now, into `destination`. */
export function workingTreeTarball(root, destination, say) {
  mkdirSync(destination, { recursive: true });
  const log = path.join(destination, 'build.log');
  writeFileSync(log, `bench:compare build of the working tree ${root}\n`);
  say(`building the working tree (npm run build, npm pack; log: ${log}) …`);
  return buildAndPack(root, destination, log);
}

/**
 * A fresh app folder at `folder` with `tarball` installed as a user installs it (`npm init -y`,
 * `npm i <tarball> --omit=dev`, from the npm cache when it can); returns the installed package folder.
 */
export function installApp(tarball, folder) {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const log = path.join(folder, 'install.log');
  writeFileSync(log, `bench:compare install of ${tarball}\n`);
  run(NPM, ['init', '-y'], { cwd: folder, log, what: 'npm init -y' });
  run(NPM, ['install', tarball, '--omit=dev', '--prefer-offline', ...NPM_QUIET], {
    cwd: folder,
    log,
    what: `npm install ${path.basename(tarball)}`,
  });
  const installed = path.join(folder, 'node_modules', 'ideact');
  if (!existsSync(path.join(installed, 'package.json'))) {
    throw new SideBuildError(`npm install left no ${installed}`, log);
  }
  return installed;
}
