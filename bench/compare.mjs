/**
 * `npm run bench:compare -- <git ref> [--rounds N]` (issue 28): the guard run before resolving an
 * issue. Builds and packs the ref (in a temp folder, cached by commit) and the working tree (as it
 * is, uncommitted changes included), installs each tarball into its own fresh app, then measures
 * W1 (custom Provider and ScriptedProvider), W2, W3 and the cold imports of both, one fresh child per
 * measurement, the two sides interleaved round by round, and prints the medians and the ratio
 * new/old, flagging every ratio above 1.10. It exits 0 even then (a person reads it; not a gate) and
 * non-zero only when a side failed to build or a workload failed its own check (or the working tree
 * cannot run one at all; the old ref may: `n/a (reason)`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  COMPARE_HOME,
  SideBuildError,
  git,
  installApp,
  refTarball,
  resolveRef,
  workingTreeTarball,
} from './lib/compare-build.mjs';
import {
  CHILD_RUNS,
  CHILD_WARMUPS,
  COLD_PER_ROUND,
  WORKLOADS,
  measureChild,
  measureCold,
  summarize,
  writeColdScripts,
} from './lib/compare-workloads.mjs';
import { table } from './lib/report-table.mjs';
import { formatNumber, formatRatio } from './lib/stats.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** A ratio new/old above this must be explained in the issue's closing note. */
const FLAG_ABOVE = 1.1;
const FLAG = '⚠ explain in the closing note';
const USAGE =
  'usage: npm run bench:compare -- <git ref> [--rounds N] [--runs N] [--warmups N] [--node-option <flag>]…\n' +
  '  --rounds N            rounds (N ≥ 1, default 5)\n' +
  `  --runs N              measured runs per W1–W3 process, their median its figure (default ${CHILD_RUNS})\n` +
  `  --warmups N           warm-up runs before them (default ${CHILD_WARMUPS})\n` +
  '  --node-option <flag>  a Node option for every measured process of both sides (repeatable),\n' +
  '                        e.g. --node-option=--v8-pool-size=2: what a deployment that sets it sees';

function say(line = '') {
  process.stdout.write(`${line}\n`);
}

/** The ref and the rounds from the command line; exits 2 with the usage when they are wrong. */
function parseCommandLine() {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        rounds: { type: 'string', default: '5' },
        runs: { type: 'string', default: String(CHILD_RUNS) },
        warmups: { type: 'string', default: String(CHILD_WARMUPS) },
        'node-option': { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    say(`bench:compare: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  const { positionals, values } = parsed;
  const rounds = Number(values.rounds);
  const child = { runs: Number(values.runs), warmups: Number(values.warmups) };
  const counts = [rounds, child.runs, child.warmups];
  if (
    values.help ||
    positionals.length !== 1 ||
    counts.some((count) => !Number.isInteger(count) || count < 1)
  ) {
    say(
      values.help
        ? USAGE
        : `bench:compare: expected one git ref and --rounds, --runs, --warmups ≥ 1\n${USAGE}`,
    );
    process.exit(values.help ? 0 : 2);
  }
  const nodeOptions = values['node-option'];
  const notAnOption = nodeOptions.find((option) => !option.startsWith('-'));
  if (notAnOption !== undefined) {
    say(
      `bench:compare: --node-option takes a Node flag (e.g. --v8-pool-size=2), not ${notAnOption}\n${USAGE}`,
    );
    process.exit(2);
  }
  return { ref: positionals[0], rounds, nodeOptions, child };
}

/** The shared fixtures import zod from bench/node_modules: installs the bench's own dependencies once. */
function ensureBenchDependencies() {
  if (existsSync(path.join(BENCH, 'node_modules'))) return;
  say('bench:compare: installing the bench’s own dependencies (npm ci --prefix bench) …');
  const result = spawnSync(NPM, ['ci', '--prefix', BENCH, '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new SideBuildError('npm ci --prefix bench failed');
}

/** The machine line of the report (CPU, cores, load average, Node). */
function machine() {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, node: process.version };
}

/** The working tree's commit and whether it has uncommitted changes. */
function workingTreeDescription() {
  const head = git(ROOT, ['log', '-1', '--format=%h %s']);
  const changes = git(ROOT, ['status', '--porcelain']).split('\n').filter(Boolean).length;
  return `working tree at ${head}${changes > 0 ? ` + ${changes} uncommitted change(s)` : ' (clean)'}`;
}

/** Builds, packs and installs both sides; returns `[old, new]` with their folders and labels. */
function prepareSides(ref, runFolder) {
  const { commit, description } = resolveRef(ROOT, ref);
  const built = refTarball(ROOT, commit, say);
  say(
    `old: ${ref} = ${description}\n     ${built.cached ? 'cached build' : 'built'}: ${built.tarball}`,
  );
  const newTarball = workingTreeTarball(ROOT, path.join(runFolder, 'working-tree'), say);
  const newDescription = workingTreeDescription();
  say(`new: ${newDescription}\n     packed: ${newTarball}`);
  const sides = [
    { id: 'old', label: `old (${commit.slice(0, 7)})`, description, tarball: built.tarball },
    { id: 'new', label: 'new (working tree)', description: newDescription, tarball: newTarball },
  ];
  for (const side of sides) {
    side.appFolder = path.join(runFolder, `app-${side.id}`);
    say(`installing ${path.basename(side.tarball)} into ${side.appFolder} …`);
    side.packageFolder = installApp(side.tarball, side.appFolder);
    side.version = JSON.parse(
      readFileSync(path.join(side.packageFolder, 'package.json'), 'utf8'),
    ).version;
    writeColdScripts(side.appFolder);
  }
  return sides;
}

/**
 * Every workload for both sides, `rounds` times; within a round each workload runs once per side, in
 * fresh processes, the side that goes first alternating from round to round (old, new; new, old; …),
 * so load drift and order effects hit both alike. Returns `results[workload.id][side.id] = [...]`.
 */
function measure(sides, rounds, nodeOptions, child) {
  const results = Object.fromEntries(
    WORKLOADS.map((workload) => [workload.id, { old: [], new: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    const started = Date.now();
    for (const workload of WORKLOADS) {
      for (const side of order) {
        const result = workload.child
          ? measureChild(
              BENCH,
              side,
              workload.child,
              workload.rows.map(([, key]) => key),
              nodeOptions,
              child,
            )
          : measureCold(side, workload.cold, nodeOptions);
        results[workload.id][side.id].push(result);
      }
    }
    say(
      `round ${round + 1}/${rounds} done in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(load ${os.loadavg()[0].toFixed(2)})`,
    );
  }
  return results;
}

/** A cell: the figure, or `n/a (reason)`, or `FAILED (reason)` (a `|` escaped: one table cell). */
function cell(summary, key) {
  if (summary.error) return `FAILED (${summary.error})`.replaceAll('|', '\\|');
  if (summary.unavailable) return `n/a (${summary.unavailable})`.replaceAll('|', '\\|');
  return formatNumber(summary[key]);
}

/** The ratio new/old with its flag, or why there is none. */
function ratioCell(old, current, key) {
  if (old.error || current.error || old.unavailable || current.unavailable) return 'n/a';
  if (!(old[key] > 0)) return 'n/a (old figure ≤ 0)';
  const ratio = current[key] / old[key];
  return ratio > FLAG_ABOVE ? `${formatRatio(ratio)} ${FLAG}` : formatRatio(ratio);
}

/**
 * The working tree must run every workload: what would be `n/a` for the old ref (an API or export it
 * did not have yet) is a failure on the new side.
 */
function requireEveryWorkload(summary) {
  return summary.unavailable
    ? { error: `n/a on the working tree: ${summary.unavailable}` }
    : summary;
}

/** The report's table rows (a workload's `rows`: two per cold import, ms and RSS over bare node). */
function reportRows(results) {
  const rows = [];
  let failed = false;
  for (const workload of WORKLOADS) {
    const old = summarize(workload, results[workload.id].old);
    const current = requireEveryWorkload(summarize(workload, results[workload.id].new));
    failed ||= Boolean(old.error || current.error);
    for (const [label, key] of workload.rows) {
      rows.push([label, cell(old, key), cell(current, key), ratioCell(old, current, key)]);
    }
  }
  return { rows, failed };
}

async function main() {
  const { ref, rounds, nodeOptions, child } = parseCommandLine();
  const runFolder = path.join(COMPARE_HOME, `run-${process.pid}`);
  const loadAtStart = os.loadavg();
  const { cpu, cores, node } = machine();
  const flags = nodeOptions.map((option) => ` --node-option=${option}`).join('');
  const childFlags =
    child.runs === CHILD_RUNS && child.warmups === CHILD_WARMUPS
      ? ''
      : ` --runs ${child.runs} --warmups ${child.warmups}`;
  say(`bench:compare ${ref} --rounds ${rounds}${childFlags}${flags} (work folder: ${runFolder})`);
  let sides;
  try {
    ensureBenchDependencies();
    sides = prepareSides(ref, runFolder);
  } catch (error) {
    rmSync(runFolder, { recursive: true, force: true });
    say(`bench:compare: a side failed to build: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  try {
    const results = measure(sides, rounds, nodeOptions, child);
    const loadAtEnd = os.loadavg();
    const { rows, failed } = reportRows(results);
    const [old, current] = sides;
    say();
    say(`machine: ${cpu}, ${cores} cores, Node ${node}`);
    if (nodeOptions.length > 0) {
      say(`node options of every measured process (both sides): ${nodeOptions.join(' ')}`);
    }
    say(
      `load average (1/5/15 min): start ${loadAtStart.map((v) => v.toFixed(2)).join(' ')}, ` +
        `end ${loadAtEnd.map((v) => v.toFixed(2)).join(' ')}`,
    );
    say(`old: ${old.description} (ideact ${old.version})`);
    say(`new: ${current.description} (ideact ${current.version})`);
    say(
      `medians of ${rounds} round(s); per side per round: one fresh process per workload ` +
        `(W1–W3: ${child.warmups} warm-up runs, then the median of ${child.runs} measured runs), ` +
        `${COLD_PER_ROUND} processes per cold import and as many bare ones`,
    );
    say();
    for (const line of table(['workload', old.label, current.label, 'new/old'], rows)) say(line);
    say();
    say(
      `every ratio above ${FLAG_ABOVE.toFixed(2)} must be explained in the closing note ` +
        '(docs/benchmarks.md, "Before resolving an issue: bench:compare")',
    );
    if (failed) {
      say('bench:compare: a workload FAILED its own check (see the table)');
      process.exitCode = 1;
    }
  } finally {
    rmSync(runFolder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  say(`bench:compare: ${error.stack ?? error}`);
  process.exitCode = 1;
});
