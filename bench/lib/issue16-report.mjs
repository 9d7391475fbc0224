/**
 * The report sections and targets of issue 16's workloads: W10 eager calls, W11 streaming overhead,
 * W12 W1 with events and tracing, W13 memory. Each section writer returns Markdown lines.
 */
import { EAGER_CALLS, EAGER_CALL_EVERY_MS } from './fixtures.mjs';
import { describe, table, verdict } from './report-table.mjs';
import { formatNumber, formatRatio } from './stats.mjs';

/** The time the model's stream of W10 takes (the last Call is complete then). */
const STREAM_MS = EAGER_CALLS * EAGER_CALL_EVERY_MS;

/** A count with thousands separators (2,000). */
function count(value) {
  return Number(value).toLocaleString('en-US');
}

/** W10's rows: ideact with eager calls and without, then each peer (which has no switch). */
function eagerRows(frameworks) {
  return frameworks.flatMap((framework) =>
    framework.id === 'ideact'
      ? [
          { framework, mode: 'eager', label: 'ideact (eager calls, the default)' },
          { framework, mode: 'off', label: 'ideact (`eagerCalls: false`)' },
        ]
      : [{ framework, mode: 'default', label: framework.label }],
  );
}

/** W10: wall time and tool start times per framework, independent tools and one-slot tools. */
export function eagerCallsSection(results, frameworks) {
  const lines = [
    `## W10 eager calls (issue 16): ${EAGER_CALLS} Calls streamed over ${count(STREAM_MS)} ms (one every ` +
      `${EAGER_CALL_EVERY_MS} ms), each tool body 200 ms`,
    '',
    'Start times are ms after the run started (the model is done writing at ~1,025 ms). Independent: ' +
      'each body waits alone; one slot: the bodies share a resource that serves one at a time.',
    '',
  ];
  const rows = eagerRows(frameworks).map(({ framework, mode, label }) => {
    const result = results[framework.id];
    const missing = describe(result);
    if (missing) return [label, missing, '', '', '', ''];
    const pick = (tools, key) => result[`${mode}_${tools}_${key}`];
    const early = pick('independent', 'firstStartMs') < STREAM_MS ? 'yes' : 'no';
    const starts = (tools) =>
      `${formatNumber(pick(tools, 'firstStartMs'))} / ${formatNumber(pick(tools, 'lastStartMs'))}`;
    return [
      label,
      early,
      formatNumber(pick('independent', 'wallMs')),
      starts('independent'),
      formatNumber(pick('oneSlot', 'wallMs')),
      starts('oneSlot'),
    ];
  });
  lines.push(
    ...table(
      [
        'framework',
        'starts tools while the model streams',
        'independent: wall (ms)',
        'first / last start (ms)',
        'one slot: wall (ms)',
        'first / last start (ms)',
      ],
      rows,
    ),
    '',
  );
  return lines;
}

/** W11: per-chunk cost and last chunk → run-end, with and without an event consumer. */
export function streamingSection(w11) {
  const lines = ['## W11 streaming overhead (issue 16): one reply streamed as 2,000 deltas', ''];
  const missing = describe(w11);
  if (missing) return [...lines, missing, ''];
  lines.push(
    `One turn whose reply (${count(w11.replyCharacters)} characters) the provider yields as ${count(w11.deltas)} ` +
      'text deltas at once; per chunk = (wall with the deltas − wall with the reply in one delta) ÷ ' +
      `deltas; medians of ${w11.runs} runs.`,
    '',
  );
  const row = (label, mode, perChunk, perChunkCpu) => {
    const figures = w11.modes[mode];
    return [
      label,
      formatNumber(figures.wallMs),
      formatNumber(figures.cpuMs),
      perChunk === undefined ? '' : `${formatNumber(perChunk)} / ${formatNumber(perChunkCpu)}`,
      formatNumber(figures.lastChunkToRunEndMs),
    ];
  };
  lines.push(
    ...table(
      ['run', 'wall (ms)', 'CPU (ms)', 'per chunk, wall / CPU (µs)', 'last chunk → run-end (ms)'],
      [
        row(
          `agent.run(), ${count(w11.deltas)} deltas (no consumer; end = promise resolved)`,
          'run',
          w11.runPerChunkUs,
          w11.runPerChunkCpuUs,
        ),
        row('agent.run(), 1 delta', 'runOneDelta'),
        row(
          `agent.stream() + for await, ${count(w11.deltas)} deltas (end = run-end event time)`,
          'stream',
          w11.streamPerChunkUs,
          w11.streamPerChunkCpuUs,
        ),
        row('agent.stream() + for await, 1 delta', 'streamOneDelta'),
      ],
    ),
    '',
  );
  return lines;
}

/** How much a W12 variant moves W1's `key` (ms/turn by default) against plain `agent.run()`. */
export function overheadOf(w12, id, key = 'msPerTurn') {
  const base = w12.ideact;
  const variant = w12[id];
  if (describe(base) || describe(variant)) return undefined;
  return variant[key] / base[key] - 1;
}

/** A fraction as a signed percentage (`+12.4 %`), `n/a` without one. */
function percent(value) {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} %`;
}

/** The paired W12 variants (bench/ideact-overhead.mjs) and their labels. */
const PAIRED_LABELS = {
  run: 'agent.run()',
  stream: 'agent.stream() + for await',
  trace: 'agent.run(), OTel SDK registered',
  'stream+trace': 'agent.stream() + for await, OTel SDK registered',
};

/** W12 paired: the four variants alternating run by run in one warm process. */
function pairedLines(paired) {
  const missing = describe(paired);
  if (missing) return ['Paired, one process: ' + missing, ''];
  return [
    `Paired, one process (\`bench/ideact-overhead.mjs\`): the four variants alternate run by run, ` +
      `${paired.rounds} rounds after a warm-up, the SDK registered and unregistered between runs; ` +
      'overhead = median over rounds of (variant ÷ plain run of the same round) − 1.',
    '',
    ...table(
      ['ideact', 'ms/turn (median / p10)', 'overhead', 'CPU ms/turn', 'CPU overhead'],
      Object.entries(PAIRED_LABELS).map(([key, label]) => {
        const figures = paired.variants[key];
        const plain = key === 'run';
        return [
          label,
          `${formatNumber(figures.msPerTurn)} / ${formatNumber(figures.msPerTurnP10)}`,
          plain ? '' : percent(figures.overhead),
          formatNumber(figures.cpuMsPerTurn),
          plain ? '' : percent(figures.cpuOverhead),
        ];
      }),
    ),
    '',
  ];
}

/** W12: W1 ms/turn of ideact plain, with a consumer, with the OpenTelemetry SDK, with both. */
export function tracingSection(w12, variants, paired) {
  const lines = [
    '## W12 events and tracing on W1 (issue 16): 200 turns of one call, then the answer',
    '',
    'OTel SDK: `NodeTracerProvider` (AsyncLocalStorage context manager) with a `SimpleSpanProcessor` ' +
      'into an `InMemorySpanExporter`, registered globally; ~400 spans per run.',
    '',
    ...pairedLines(paired),
    'One process per variant and round (as W1; each process: a warm-up run, then 5 measured runs, ' +
      'so JIT warm-up weighs in):',
    '',
  ];
  const rows = variants.map((variant) => {
    const result = w12[variant.id];
    const missing = describe(result);
    if (missing) return [variant.label, missing, '', '', '', ''];
    const plain = variant.id === 'ideact';
    const against = (key) =>
      plain
        ? ''
        : `${percent(overheadOf(w12, variant.id, key))} / ${percent(overheadOf(w12, variant.id, `${key}P10`))}`;
    return [
      variant.label,
      `${formatNumber(result.msPerTurn)} / ${formatNumber(result.msPerTurnP10)}`,
      against('msPerTurn'),
      `${formatNumber(result.cpuMsPerTurn)} / ${formatNumber(result.cpuMsPerTurnP10)}`,
      against('cpuMsPerTurn'),
      String(result.runs),
    ];
  });
  lines.push(
    ...table(
      [
        'ideact',
        'ms/turn (median / p10)',
        'vs agent.run()',
        'CPU ms/turn (median / p10)',
        'vs agent.run()',
        'runs',
      ],
      rows,
    ),
    '',
  );
  return lines;
}

/** W13: heap after GC every 1,000 iterations of createAgent + run. */
export function memorySection(w13) {
  const lines = [
    '## W13 memory (issue 16): 10,000 × (createAgent + agent.run) in one process, never disposed',
    '',
  ];
  const missing = describe(w13);
  if (missing) return [...lines, missing, ''];
  lines.push(
    `Heap used after \`globalThis.gc()\`: ${formatNumber(w13.heapAtFirstCheckpointMb)} MB at the ` +
      `1,000th, ${formatNumber(w13.heapAtLastCheckpointMb)} MB at the ${count(w13.iterations)}th: ` +
      `growth ${formatNumber(w13.heapGrowthMb)} MB (${w13.totalSeconds.toFixed(0)} s in all).`,
    '',
    ...table(
      ['iteration', 'heap used (MB)', 'external (MB)', 'RSS (MB)', 'ms/iteration'],
      w13.checkpoints.map((point) => [
        count(point.iteration),
        formatNumber(point.heapUsedMb),
        formatNumber(point.externalMb),
        formatNumber(point.rssMb),
        formatNumber(point.msPerIteration),
      ]),
    ),
    '',
  );
  return lines;
}

/** Issue 16's target rows (W10, W12, W13) and their summary fields. */
export function issue16Targets({ w10, w12Paired, w13 }) {
  const ideact = describe(w10?.ideact) ? undefined : w10.ideact;
  const eagerMs = ideact?.eager_oneSlot_wallMs;
  const offMs = ideact?.off_oneSlot_wallMs;
  const pairedOverhead = (key) =>
    describe(w12Paired) ? undefined : w12Paired.variants[key].overhead;
  const events = pairedOverhead('stream');
  const tracing = pairedOverhead('trace');
  const both = pairedOverhead('stream+trace');
  const growth = describe(w13) ? undefined : w13.heapGrowthMb;
  const within = (value) => Math.abs(value) <= 0.1;
  const rows = [
    [
      'eager_calls_wall_ms ≤ 1300 (W10, one slot)',
      eagerMs === undefined ? 'n/a' : `${formatNumber(eagerMs)} ms`,
      verdict(eagerMs, (v) => v <= 1300),
    ],
    [
      'no_eager_calls_wall_ms ≥ 2000 (W10, one slot, `eagerCalls: false`)',
      offMs === undefined ? 'n/a' : `${formatNumber(offMs)} ms`,
      verdict(offMs, (v) => v >= 2000),
    ],
    [
      'W1 ms/turn with an event consumer within ±10 % (W12 paired)',
      percent(events),
      verdict(events, within),
    ],
    [
      'W1 ms/turn with the OTel SDK within ±10 % (W12 paired)',
      percent(tracing),
      verdict(tracing, within),
    ],
    ['W1 ms/turn with both within ±10 % (W12 paired)', percent(both), verdict(both, within)],
    [
      'heap growth 1,000th → 10,000th ≤ 5 MB (W13)',
      growth === undefined ? 'n/a' : `${formatNumber(growth)} MB`,
      verdict(growth, (v) => v <= 5),
    ],
  ];
  const summary =
    `eager_calls_wall_ms=${formatNumber(eagerMs)} no_eager_calls_wall_ms=${formatNumber(offMs)} ` +
    `events_overhead=${formatRatio(events)} tracing_overhead=${formatRatio(tracing)} ` +
    `heap_growth_mb=${formatNumber(growth)}`;
  return { rows, summary };
}
