/**
 * W11 (issue 16, streaming overhead): `node bench/ideact-streaming.mjs [deltas]` runs one agent turn
 * whose reply (the final answer's Vessel, ~4 characters per delta) a provider streams as `deltas`
 * text deltas (default 2,000) with no delay, and measures, medians of BENCH_RUNS runs after a warm-up:
 * - the time from the provider's last chunk (stamped just before it is yielded) to `run-end` (the
 *   event's `time`; for `agent.run()`, which has no consumer, to the moment its promise resolved);
 * - the cost per chunk: (wall with `deltas` deltas − wall with the same reply in one delta) ÷ deltas,
 *   for `agent.run()` (no consumer: only the eager-call parser reads the deltas) and for
 *   `agent.stream()` read by a `for await` loop (a `solution-delta` event per delta, partial JSON).
 * Prints one `BENCH_RESULT <json>` line.
 */
import { performance } from 'node:perf_hooks';
import { loadIdeact, missingExports } from './lib/ideact-package.mjs';
import { measuredRuns, median, warmAndMeasure } from './lib/stats.mjs';

const DEFAULT_DELTAS = 2000;
const CHARACTERS_PER_DELTA = 4;
const WORDS = ['the', 'model', 'writes', 'its', 'answer', 'token', 'by', 'token', 'while', 'we'];

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

/** Milliseconds since the epoch on the clock of the events' `time` (performance.timeOrigin based). */
function now() {
  return performance.timeOrigin + performance.now();
}

/** The answer's Vessel text, about `deltas × CHARACTERS_PER_DELTA` characters long. */
function replyText(deltas) {
  const target = deltas * CHARACTERS_PER_DELTA;
  const words = [];
  let length = '{"calls":[],"output":""}'.length;
  for (let index = 0; length < target; index++) {
    const word = WORDS[index % WORDS.length];
    words.push(word);
    length += word.length + 1;
  }
  return JSON.stringify({ calls: [], output: words.join(' ') });
}

/** `text` cut into `count` pieces of (nearly) equal length. */
function pieces(text, count) {
  return Array.from({ length: count }, (_, index) =>
    text.slice(
      Math.round((index * text.length) / count),
      Math.round(((index + 1) * text.length) / count),
    ),
  );
}

/** A provider that streams `text` as `count` text deltas at once; `stamps.lastChunk` is set before the last. */
function deltaProvider(text, count, stamps) {
  const deltas = pieces(text, count);
  const usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  return {
    name: 'deltas',
    async generate() {
      stamps.lastChunk = now();
      return { options: [JSON.parse(text)], usage };
    },
    async *stream() {
      const last = deltas.length - 1;
      for (let index = 0; index < last; index++) {
        yield { type: 'text-delta', delta: deltas[index], index: 0 };
      }
      stamps.lastChunk = now();
      yield { type: 'text-delta', delta: deltas[last], index: 0 };
    },
  };
}

/** One run of one turn: wall, CPU, and the time from the provider's last chunk to the run's end. */
async function oneRun(count, consume, text) {
  const { createAgent } = loadIdeact();
  const stamps = {};
  const agent = createAgent({ tools: [], provider: deltaProvider(text, count, stamps) });
  const options = { task: 'Answer.', output: { type: 'string' }, maxTurns: 2 };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let result;
  let runEnd;
  let events = 0;
  if (consume) {
    const stream = agent.stream(options);
    for await (const event of stream) {
      events++;
      if (event.type === 'run-end' && event.path.length === 1) runEnd = event.time;
    }
    result = await stream.result;
  } else {
    result = await agent.run(options);
    runEnd = now();
  }
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  if (result.output !== JSON.parse(text).output) throw new Error('W11: wrong output');
  if (consume && events < count) throw new Error(`W11: ${events} events for ${count} deltas`);
  return {
    wallMs: wall,
    cpuMs: (cpu.user + cpu.system) / 1000,
    lastChunkToRunEndMs: runEnd - stamps.lastChunk,
    events,
  };
}

async function main() {
  const reason = missingExports(['createAgent']);
  if (reason) return emit({ workload: 'w11', framework: 'ideact', unavailable: reason });
  const deltas = Math.max(2, Number(process.argv[2] ?? DEFAULT_DELTAS) || DEFAULT_DELTAS);
  const text = replyText(deltas);
  const runs = measuredRuns();
  const modes = {
    run: { consume: false, count: deltas },
    runOneDelta: { consume: false, count: 1 },
    stream: { consume: true, count: deltas },
    streamOneDelta: { consume: true, count: 1 },
  };
  // Modes interleaved within each round, so that load drift hits every mode alike.
  const samples = Object.fromEntries(Object.keys(modes).map((mode) => [mode, []]));
  await warmAndMeasure(runs, async (round) => {
    for (const [mode, { consume, count }] of Object.entries(modes)) {
      const sample = await oneRun(count, consume, text);
      if (round >= 0) samples[mode].push(sample);
    }
  });
  const medians = {};
  for (const [mode, list] of Object.entries(samples)) {
    medians[mode] = {};
    for (const key of Object.keys(list[0])) medians[mode][key] = median(list.map((s) => s[key]));
  }
  const perChunkUs = (mode, baseline) =>
    ((medians[mode].wallMs - medians[baseline].wallMs) / deltas) * 1000;
  const perChunkCpuUs = (mode, baseline) =>
    ((medians[mode].cpuMs - medians[baseline].cpuMs) / deltas) * 1000;
  emit({
    workload: 'w11',
    framework: 'ideact',
    deltas,
    replyCharacters: text.length,
    runs,
    modes: medians,
    runPerChunkUs: perChunkUs('run', 'runOneDelta'),
    runPerChunkCpuUs: perChunkCpuUs('run', 'runOneDelta'),
    streamPerChunkUs: perChunkUs('stream', 'streamOneDelta'),
    streamPerChunkCpuUs: perChunkCpuUs('stream', 'streamOneDelta'),
    runLastChunkToEndMs: medians.run.lastChunkToRunEndMs,
    streamLastChunkToRunEndMs: medians.stream.lastChunkToRunEndMs,
  });
}

main().catch((error) => {
  emit({ workload: 'w11', framework: 'ideact', error: String(error?.stack ?? error) });
  process.exitCode = 1;
});
