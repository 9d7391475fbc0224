/**
 * `npm run bench`: installs the bench's own dependencies if needed (never the root's), builds the root
 * package if dist/ is missing or older than src/, runs every workload in its own child process, prints
 * the report, writes bench/RESULTS.md, and ends with the one-line summary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatNumber, formatRatio, measuredRuns, median, quantile } from './lib/stats.mjs';
import { describe, table, verdict } from './lib/report-table.mjs';
import {
  eagerCallsSection,
  issue16Targets,
  memorySection,
  streamingSection,
  tracingSection,
} from './lib/issue16-report.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const CHILD_TIMEOUT_MS = 240_000;
/** RESULTS.md from this line on is hand-written history that a full run keeps. */
const KEPT_MARKER = '<!-- kept by bench/run.mjs: records below -->';
/** Where BENCH_PROFILE=1 puts the CPU profiles (outside the work tree). */
const PROFILE_DIRECTORY = path.join(os.tmpdir(), 'ideact-bench-profiles');

const FRAMEWORKS = [
  { id: 'ideact', label: 'ideact', packageName: null },
  { id: 'openai-agents', label: 'OpenAI Agents SDK', packageName: '@openai/agents' },
  { id: 'vercel-ai', label: 'Vercel AI SDK 6', packageName: 'ai' },
  { id: 'vercel-ai-7', label: 'Vercel AI SDK 7', packageName: 'ai7' },
  { id: 'langgraph', label: 'LangGraph.js', packageName: '@langchain/langgraph' },
];
const PEERS = FRAMEWORKS.filter((framework) => framework.id !== 'ideact');
/** W9's floor: a hand-written Promise.all of the same tool bodies (bench/frameworks/promise-all.mjs). */
const FLOOR = { id: 'promise-all', label: 'Promise.all (floor)', packageName: null };
/** W12: W1 run by ideact plain, with a run-event consumer, with an OpenTelemetry SDK, and with both. */
const IDEACT_VARIANTS = [
  { id: 'ideact', label: 'agent.run()' },
  { id: 'ideact+stream', label: 'agent.stream() + for await' },
  { id: 'ideact+trace', label: 'agent.run(), OTel SDK registered' },
  { id: 'ideact+stream+trace', label: 'agent.stream() + for await, OTel SDK registered' },
];
/** The shared workloads (one child per framework per round) and who runs each. */
const SHARED_WORKLOADS = {
  w1: FRAMEWORKS,
  w2: FRAMEWORKS,
  w3: FRAMEWORKS,
  w9: [...FRAMEWORKS, FLOOR],
  w10: FRAMEWORKS,
  w12: IDEACT_VARIANTS,
};
/** Measured runs per child process (default 1): W12 compares ideact with itself, so more samples. */
const RUNS_PER_CHILD = { w12: 5 };
/** Workloads that need bench/node_modules (the peers, and zod for the shared fixtures). */
const INSTALL_WORKLOADS = ['w1', 'w2', 'w3', 'w9', 'w10', 'w12'];
/** Issue 16's parallelism target: W9 ideact wall time (a Promise.all of the same timers takes ~22 ms). */
const W9_TARGET_MS = 30;

function log(line = '') {
  process.stdout.write(`${line}\n`);
}

function runCommand(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

// ── setup ─────────────────────────────────────────────────────────────────────────────────────────
function ensureBenchDependencies() {
  if (existsSync(path.join(BENCH, 'node_modules'))) return;
  const hasLock = existsSync(path.join(BENCH, 'package-lock.json'));
  log(
    `bench: installing the bench's own dependencies (${hasLock ? 'npm ci' : 'npm install'} --prefix bench)`,
  );
  const ok = hasLock
    ? runCommand(NPM, ['ci', '--prefix', BENCH, '--no-audit', '--no-fund'], ROOT)
    : runCommand(NPM, ['install', '--prefix', BENCH, '--no-audit', '--no-fund'], ROOT);
  if (!ok) throw new Error('bench: installing bench/ dependencies failed');
}

function newestMtime(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function ensureBuild() {
  const entry = path.join(ROOT, 'dist', 'index.js');
  const stale = !existsSync(entry) || statSync(entry).mtimeMs < newestMtime(path.join(ROOT, 'src'));
  if (!stale) return 'dist/ is up to date';
  log(
    `bench: ${existsSync(entry) ? 'dist/ is older than src/' : 'dist/ is missing'}; running npm run build`,
  );
  if (runCommand(NPM, ['run', 'build'], ROOT)) return 'built with npm run build';
  if (existsSync(entry)) return 'npm run build FAILED; measured the previous dist/';
  return 'npm run build FAILED; no dist/';
}

function packageVersion(name) {
  try {
    const file = name
      ? path.join(BENCH, 'node_modules', name, 'package.json')
      : path.join(ROOT, 'package.json');
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return '?';
  }
}

// ── children ──────────────────────────────────────────────────────────────────────────────────────
function runChild(script, args, nodeFlags = []) {
  const started = Date.now();
  const child = spawnSync(
    process.execPath,
    [...nodeFlags, ...childNodeFlags(args), path.join(BENCH, script), ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, OPENAI_AGENTS_DISABLE_TRACING: '1', LANGCHAIN_TRACING_V2: 'false' },
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const line = (child.stdout || '').split('\n').find((text) => text.startsWith('BENCH_RESULT '));
  if (!line) {
    const reason = child.error
      ? child.error.message
      : `exit ${child.status}: ${(child.stderr || '').trim().split('\n').slice(-3).join(' | ')}`;
    return { error: `no result (${reason})`, seconds };
  }
  return { ...JSON.parse(line.slice('BENCH_RESULT '.length)), seconds };
}

/** BENCH_PROFILE=1 writes a V8 CPU profile of every ideact child into <tmpdir>/ideact-bench-profiles/. */
function childNodeFlags(args) {
  if (
    process.env.BENCH_PROFILE !== '1' ||
    !(args.some((argument) => argument.startsWith('ideact')) || args.length === 1)
  )
    return [];
  return [
    '--cpu-prof',
    '--cpu-prof-dir',
    PROFILE_DIRECTORY,
    '--cpu-prof-name',
    `${args.join('-')}.cpuprofile`,
  ];
}

/** Formats RESULTS.md with the root's prettier when it is installed (so `npm run lint` stays clean). */
async function formatMarkdown(text) {
  try {
    const prettier = await import(
      pathToFileURL(path.join(ROOT, 'node_modules', 'prettier', 'index.mjs')).href
    );
    const config = (await prettier.resolveConfig(path.join(BENCH, 'RESULTS.md'))) ?? {};
    return await prettier.format(text, { ...config, parser: 'markdown' });
  } catch {
    return text;
  }
}

/** BENCH_ONLY=w1,w4 runs only those workloads (the others report `n/a (not run)`). */
function selected(workload) {
  const only = process.env.BENCH_ONLY;
  return (
    !only ||
    only
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .includes(workload)
  );
}

/** Medians over the rounds' samples (each child: one warm-up run, then one measured run). */
function aggregate(results) {
  const failed = results.find((result) => describe(result));
  if (failed) return failed;
  const samples = results.flatMap((result) => result.samples);
  const pick = (key) => median(samples.map((sample) => sample[key]));
  const aggregated = {
    runs: samples.length,
    peakRssMb: median(results.map((result) => result.peakRssMb)),
  };
  for (const key of Object.keys(samples[0] ?? {})) aggregated[key] = pick(key);
  // W12 compares ideact with itself on a shared machine: the 10th percentiles too.
  for (const key of ['msPerTurn', 'cpuMsPerTurn']) {
    if (aggregated[key] !== undefined)
      aggregated[`${key}P10`] = quantile(
        samples.map((sample) => sample[key]),
        0.1,
      );
  }
  if (aggregated.firstGapMs !== undefined)
    aggregated.gapGrowth = aggregated.lastGapMs / aggregated.firstGapMs;
  return aggregated;
}

// ── report ────────────────────────────────────────────────────────────────────────────────────────
function bestPeer(results, key) {
  const values = PEERS.map((peer) => results[peer.id]?.[key]).filter((value) =>
    Number.isFinite(value),
  );
  return values.length ? Math.min(...values) : undefined;
}

function ratio(value, best) {
  return Number.isFinite(value) && Number.isFinite(best) && best > 0 ? value / best : undefined;
}

async function main() {
  const started = Date.now();
  // W1–W3, W9, W10 run the peers and W12 the shared fixtures; BENCH_ONLY=w8 needs no bench/ install.
  if (INSTALL_WORKLOADS.some(selected)) ensureBenchDependencies();
  const build = ensureBuild();
  const loadAtStart = os.loadavg()[0];
  const runs = measuredRuns();
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    memoryGb: (os.totalmem() / 1024 ** 3).toFixed(1),
  };

  // W1–W3, W9: one process per framework per round, frameworks interleaved within each round, so
  // that load drift on a shared machine affects every framework alike.
  const shared = Object.fromEntries(
    Object.keys(SHARED_WORKLOADS).map((workload) => [workload, {}]),
  );
  for (const workload of Object.keys(shared).filter(selected)) {
    const frameworks = SHARED_WORKLOADS[workload];
    const rounds = Object.fromEntries(frameworks.map((framework) => [framework.id, []]));
    for (let round = 0; round < runs; round++) {
      log(`bench: ${workload} round ${round + 1}/${runs}`);
      for (const framework of frameworks) {
        const previous = rounds[framework.id];
        if (previous.length > 0 && describe(previous[previous.length - 1])) continue;
        const result = runChild('child.mjs', [
          workload,
          framework.id,
          String(RUNS_PER_CHILD[workload] ?? 1),
        ]);
        previous.push(result);
        const missing = describe(result);
        if (missing || round === 0)
          log(`bench:   ${framework.id}: ${missing ?? 'ok'} (${result.seconds} s)`);
      }
    }
    for (const framework of frameworks) {
      shared[workload][framework.id] = aggregate(rounds[framework.id]);
    }
  }
  const only = {};
  for (const workload of ['w4', 'w5', 'w6', 'w7', 'w8'].filter(selected)) {
    log(`bench: ${workload} ideact …`);
    only[workload] = runChild('ideact-only.mjs', [workload]);
    log(`bench:   ${describe(only[workload]) ?? 'ok'} (${only[workload].seconds} s)`);
  }
  if (selected('w11')) {
    log('bench: w11 ideact (2,000 streamed deltas) …');
    only.w11 = runChild('ideact-streaming.mjs', ['2000']);
    log(`bench:   ${describe(only.w11) ?? 'ok'} (${only.w11.seconds} s)`);
  }
  if (selected('w12')) {
    log('bench: w12 ideact paired (the four variants alternating in one process) …');
    only.w12Paired = runChild('ideact-overhead.mjs', ['100']);
    log(`bench:   ${describe(only.w12Paired) ?? 'ok'} (${only.w12Paired.seconds} s)`);
  }
  if (selected('w13')) {
    log('bench: w13 ideact (10,000 × createAgent + run, --expose-gc) …');
    only.w13 = runChild('ideact-memory.mjs', ['10000'], ['--expose-gc']);
    log(`bench:   ${describe(only.w13) ?? 'ok'} (${only.w13.seconds} s)`);
  }

  const report = [];
  const out = (line = '') => report.push(line);
  out('# ideact benchmark results');
  out();
  out(
    `Run: ${new Date().toISOString()} · medians of ${runs} measured runs per figure, each after a warm-up ` +
      `(W1–W3, W9, W10, W12: one process per framework per run, frameworks interleaved) · build: ${build}`,
  );
  out(
    `Machine: ${machine.cpu} · ${machine.cores} cores · ${machine.memoryGb} GiB · Node ${machine.node} · ${machine.platform}`,
  );
  const loadAtEnd = os.loadavg()[0];
  const busy = Math.max(loadAtStart, loadAtEnd) > machine.cores;
  out(
    `Load average (1 min) at start ${loadAtStart.toFixed(2)}, at end ${loadAtEnd.toFixed(2)}` +
      (busy
        ? ': above the core count, other processes competed for the CPU and every timing is inflated.'
        : ' (below the core count).'),
  );
  out(
    `Versions: ideact ${packageVersion(null)} (dist/) · ` +
      PEERS.map((peer) => `${peer.packageName} ${packageVersion(peer.packageName)}`).join(' · ') +
      ` · @langchain/core ${packageVersion('@langchain/core')} · zod ${packageVersion('zod')}`,
  );
  out(
    'All models are instant and in-process (no network, no latency): every figure is framework overhead.',
  );
  out();

  // W1
  const w1 = shared.w1;
  const w1Best = bestPeer(w1, 'msPerTurn');
  out('## W1 tool loop (3 tools, 200 turns of one call, then the answer)');
  out();
  for (const line of table(
    [
      'framework',
      'ms/turn',
      'ratio to best peer',
      'CPU ms/turn',
      'gap first 20 (ms)',
      'gap last 20 (ms)',
      'last ÷ first',
      'peak RSS (MB)',
    ],
    FRAMEWORKS.map((framework) => {
      const result = w1[framework.id];
      const missing = describe(result);
      if (missing) return [framework.label, missing, '', '', '', '', '', ''];
      return [
        framework.label,
        formatNumber(result.msPerTurn),
        formatRatio(ratio(result.msPerTurn, w1Best)),
        formatNumber(result.cpuMsPerTurn),
        formatNumber(result.firstGapMs),
        formatNumber(result.lastGapMs),
        formatRatio(result.gapGrowth),
        formatNumber(result.peakRssMb),
      ];
    }),
  ))
    out(line);
  out();

  // W2, W3
  const sections = [
    ['w2', '## W2 parallel calls (one turn of 100 calls, then the answer)', 'wall (ms)', 'wallMs'],
    [
      'w3',
      '## W3 structured output (1,000 sequential generations, 10-field schema, validated)',
      'ms/call',
      'msPerCall',
    ],
  ];
  for (const [workload, heading, unit, key] of sections) {
    const best = bestPeer(shared[workload], key);
    out(heading);
    out();
    for (const line of table(
      ['framework', unit, 'ratio to best peer'],
      FRAMEWORKS.map((framework) => {
        const result = shared[workload][framework.id];
        const missing = describe(result);
        if (missing) return [framework.label, missing, ''];
        return [framework.label, formatNumber(result[key]), formatRatio(ratio(result[key], best))];
      }),
    ))
      out(line);
    out();
  }

  // W9
  const w9 = shared.w9;
  const w9Floor = describe(w9[FLOOR.id]) ? undefined : w9[FLOOR.id].wallMs;
  const w9Best = bestPeer(w9, 'wallMs');
  out(
    '## W9 parallel calls with 20 ms tools (one turn of 100 calls, each awaiting 20 ms; issue 16)',
  );
  out();
  for (const line of table(
    ['framework', 'wall (ms)', 'over the floor (ms)', 'ratio to best peer'],
    SHARED_WORKLOADS.w9.map((framework) => {
      const result = w9[framework.id];
      const missing = describe(result);
      if (missing) return [framework.label, missing, '', ''];
      const isFloor = framework.id === FLOOR.id;
      return [
        framework.label,
        formatNumber(result.wallMs),
        isFloor || w9Floor === undefined ? '' : `+${formatNumber(result.wallMs - w9Floor)}`,
        isFloor ? '' : formatRatio(ratio(result.wallMs, w9Best)),
      ];
    }),
  ))
    out(line);
  out();

  // W10–W13 (issue 16)
  const { w11, w12Paired, w13 } = only;
  for (const line of [
    ...eagerCallsSection(shared.w10, FRAMEWORKS),
    ...streamingSection(w11),
    ...tracingSection(shared.w12, IDEACT_VARIANTS, w12Paired),
    ...memorySection(w13),
  ])
    out(line);

  // ideact-only
  out('## ideact only');
  out();
  const { w4, w5, w6, w7, w8 } = only;
  const rows = [];
  rows.push([
    'W4 100 module calls via Executor.all, 50 ms provider',
    describe(w4) ?? `${formatNumber(w4.wallMs)} ms wall = ${formatRatio(w4.parallelRatio)} × 50 ms`,
  ]);
  rows.push([
    'W5 parent prompt, 30 tools × 40-property _output',
    describe(w5) ??
      `inline ${w5.inline.total} tokens (messages ${w5.inline.messageTokens} + schema ${w5.inline.schemaTokens}) · ` +
        `module ${w5.module.total} tokens (messages ${w5.module.messageTokens} + schema ${w5.module.schemaTokens}) · ` +
        `saving ${formatRatio(w5.moduleTokenSaving)}` +
        (w5.module.outputShown ? ' · WARNING: module-scope schema still shows _output' : '') +
        (w5.note ? ` · ${w5.note}` : ''),
  ]);
  rows.push([
    'W6 renderMessages',
    describe(w6) ??
      w6.sizes
        .map(
          (entry) =>
            `${entry.messages}: ${formatNumber(entry.ms)} ms (${formatNumber(entry.msPerMessage * 1000)} µs/msg)`,
        )
        .join(' · ') + ` · µs/msg 10k ÷ 1k = ${formatRatio(w6.growth)}`,
  ]);
  rows.push([
    'W7 generateFromIdeas, 200 Ideas',
    describe(w7) ?? `${formatNumber(w7.ms)} ms (${formatNumber(w7.msPerIdea)} ms/Idea)`,
  ]);
  rows.push([
    'W8 cold start',
    describe(w8) ??
      `\`ideact --help\` ${formatNumber(w8.cliHelpMs)} ms (bare \`node -e 0\` ${formatNumber(w8.nodeBaselineMs)} ms) · ` +
        `require('ideact') ${formatNumber(w8.requireMs)} ms · ` +
        `cold \`require('ideact')\` over bare \`node\` (medians of ${w8.importRuns} processes each): ` +
        `+${formatNumber(w8.importMsOverBareNode)} ms wall, +${formatNumber(w8.importCpuMsOverBareNode)} ms CPU, ` +
        `+${formatNumber(w8.importRssMbOverBareNode)} MB RSS (bare: ${formatNumber(w8.bareNodeMs)} ms, ` +
        `${formatNumber(w8.bareNodeRssMb)} MB)` +
        (w8.helpListsCommands ? '' : ' · WARNING: --help does not list the commands'),
  ]);
  for (const line of table(['workload', 'result'], rows)) out(line);
  out();

  // targets
  const ideactW1 = describe(w1.ideact) ? undefined : w1.ideact;
  const overheadRatio = ideactW1 ? ratio(ideactW1.msPerTurn, w1Best) : undefined;
  const parallelRatio = describe(w4) ? undefined : w4.parallelRatio;
  const tokenSaving = describe(w5) ? undefined : w5.moduleTokenSaving;
  const parallelCallsWallMs = describe(w9.ideact) ? undefined : w9.ideact.wallMs;
  out('## Targets (issues 9, 15 and 16)');
  out();
  const targetRows = [
    [
      'overhead_ratio_vs_best_peer ≤ 0.33',
      formatRatio(overheadRatio),
      verdict(overheadRatio, (v) => v <= 0.33),
    ],
    ['parallel_ratio ≤ 1.3', formatRatio(parallelRatio), verdict(parallelRatio, (v) => v <= 1.3)],
    ['module_token_saving ≥ 0.70', formatRatio(tokenSaving), verdict(tokenSaving, (v) => v >= 0.7)],
    [
      'W1 last-20 ÷ first-20 gap ≤ 1.5',
      formatRatio(ideactW1?.gapGrowth),
      verdict(ideactW1?.gapGrowth, (v) => v <= 1.5),
    ],
    [
      'W6 linear (µs/msg 10k ÷ 1k ≤ 1.5)',
      formatRatio(describe(w6) ? undefined : w6.growth),
      verdict(describe(w6) ? undefined : w6.growth, (v) => v <= 1.5),
    ],
    [
      'W8 `ideact --help` ≤ 300 ms',
      describe(w8) ? 'n/a' : `${formatNumber(w8.cliHelpMs)} ms`,
      verdict(describe(w8) ? undefined : w8.cliHelpMs, (v) => v <= 300),
    ],
    [
      'import ≤ 200 ms',
      describe(w8) ? 'n/a' : `${formatNumber(w8.requireMs)} ms`,
      verdict(describe(w8) ? undefined : w8.requireMs, (v) => v <= 200),
    ],
    [
      'import_ms_over_bare_node ≤ 30 (issue 15)',
      describe(w8) ? 'n/a' : `${formatNumber(w8.importMsOverBareNode)} ms`,
      verdict(describe(w8) ? undefined : w8.importMsOverBareNode, (v) => v <= 30),
    ],
    [
      'import_rss_mb_over_bare_node ≤ 8 (issue 15)',
      describe(w8) ? 'n/a' : `${formatNumber(w8.importRssMbOverBareNode)} MB`,
      verdict(describe(w8) ? undefined : w8.importRssMbOverBareNode, (v) => v <= 8),
    ],
    [
      `parallel_calls_20ms_wall_ms ≤ ${W9_TARGET_MS} (W9, issue 16)`,
      parallelCallsWallMs === undefined
        ? 'n/a'
        : `${formatNumber(parallelCallsWallMs)} ms (floor ${formatNumber(w9Floor)} ms)`,
      verdict(parallelCallsWallMs, (v) => v <= W9_TARGET_MS),
    ],
  ];
  const issue16 = issue16Targets({ w10: shared.w10, w12Paired, w13 });
  targetRows.push(...issue16.rows);
  for (const line of table(['target', 'value', 'status'], targetRows)) out(line);
  out();
  out(`Total bench time: ${((Date.now() - started) / 1000).toFixed(0)} s.`);

  const importFigures = describe(w8) ? {} : w8;
  const summary =
    `summary: overhead_ratio_vs_best_peer=${formatRatio(overheadRatio)} ` +
    `parallel_ratio=${formatRatio(parallelRatio)} module_token_saving=${formatRatio(tokenSaving)} ` +
    `import_ms_over_bare_node=${formatNumber(importFigures.importMsOverBareNode)} ` +
    `import_rss_mb_over_bare_node=${formatNumber(importFigures.importRssMbOverBareNode)} ` +
    `parallel_calls_20ms_wall_ms=${formatNumber(parallelCallsWallMs)} ${issue16.summary}`;
  // A partial run (BENCH_ONLY) does not replace the record of the latest full run; a full run keeps
  // the hand-written records below KEPT_MARKER (before/after figures of past issues).
  if (!process.env.BENCH_ONLY) {
    const file = path.join(BENCH, 'RESULTS.md');
    const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const kept = previous.includes(KEPT_MARKER)
      ? `\n${previous.slice(previous.indexOf(KEPT_MARKER))}`
      : '';
    writeFileSync(file, await formatMarkdown(`${report.join('\n')}\n\n\`${summary}\`\n${kept}`));
  }
  log();
  for (const line of report) log(line);
  log();
  log(summary);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
