/**
 * Issue 32: the run handler's server-sent events. `node bench/serve-sse.mjs` (after `npm run build`)
 * measures, on 127.0.0.1:
 * 1. per-event overhead of `GET /runs/:id/events` (events journaled in a FileRunStore, then sent) over
 *    the run's in-process event stream (`agent.stream()`), for one run of BENCH_DELTAS (2,000) deltas
 *    with no delay: (SSE wall − in-process wall) ÷ events, medians of BENCH_RUNS (5) runs;
 * 2. 200 concurrent SSE clients on one run, and 200 runs with one client each (answers of 200 deltas,
 *    5 ms apart; the server in its own process, the 200 clients in this one): events delivered per
 *    second over all clients, p50 and p99 delivery latency of live events (an event's `time` stamped
 *    by the server → its arrival in the client, both on this machine's clock; events emitted before a
 *    client connected are a replay and not counted), and the server's peak RSS.
 * Prints a table and one `BENCH_RESULT <json>` line. Bounded: every request goes to 127.0.0.1 and the
 * script stops by itself.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer } from 'node:http';
import * as os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { TextDecoder } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadIdeact, loadIdeactTesting } from './lib/ideact-package.mjs';
import { median, quantile, formatNumber, measuredRuns } from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const now = () => performance.timeOrigin + performance.now();

/** Reads an SSE response to its end; calls `onEvent(data, receivedAt)` per event. */
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const line = frame.split('\n').find((text) => text.startsWith('data: '));
      if (line !== undefined) onEvent(JSON.parse(line.slice(6)), now());
    }
  }
}

/** 1: per-event overhead of the SSE route over the in-process stream. */
async function perEventOverhead() {
  const { createAgent, createRunHandler, FileRunStore, toNodeListener } = loadIdeact();
  const { ScriptedProvider } = loadIdeactTesting();
  const deltas = Number(process.env.BENCH_DELTAS ?? 2000);
  const output = 'word '.repeat(deltas).trim();
  const vessel = JSON.stringify({ calls: [], output });
  const agent = createAgent({
    tools: [],
    provider: new ScriptedProvider(() => ({ calls: [], output }), {
      stream: { chunkSize: Math.ceil(vessel.length / deltas) },
    }),
  });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-bench-sse-'));
  const store = new FileRunStore({ dir });
  const handler = createRunHandler(agent, { store, maxConcurrentRuns: 100 });
  const server = createServer(toNodeListener(handler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const inProcess = [];
  const overSse = [];
  let events = 0;
  const runs = measuredRuns();
  for (let index = -1; index < runs; index++) {
    let started = now();
    let count = 0;
    for await (const _event of agent.stream({ task: 'go' })) count += 1;
    const local = now() - started;
    started = now();
    const response = await globalThis.fetch(`${url}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ task: 'go' }),
    });
    let sent = 0;
    await readEvents(response, () => (sent += 1));
    const remote = now() - started;
    if (index >= 0) {
      inProcess.push(local / count);
      overSse.push(remote / sent);
      events = sent;
    }
  }
  server.closeAllConnections();
  server.close();
  await handler.close();
  await store.close();
  await agent.dispose();
  await fs.rm(dir, { recursive: true, force: true });
  const local = median(inProcess);
  const remote = median(overSse);
  return {
    events,
    inProcessMsPerEvent: local,
    sseMsPerEvent: remote,
    overheadMsPerEvent: remote - local,
  };
}

/** Starts the bench server process; resolves to its URL and a stop() that returns its peak RSS. */
async function startServer(env) {
  const child = spawn(process.execPath, [path.join(here, 'lib', 'serve-bench-server.mjs')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bench server did not start')), 30_000);
    child.stdout.on('data', () => {
      const match = /PORT (\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      return Number(/RSS (\d+)/.exec(output)?.[1] ?? NaN);
    },
  };
}

/** 2a / 2b: many clients; `oneRun` true: all on one run, else one run per client. */
async function fanOut(oneRun) {
  const server = await startServer({ BENCH_DELTAS: '200', BENCH_DELAY_MS: '5' });
  const latencies = [];
  let delivered = 0;
  const started = now();
  const start = () =>
    globalThis
      .fetch(`${server.url}/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ task: 'go' }),
      })
      .then((response) => response.json())
      .then((body) => body.runId);
  const runIds = oneRun
    ? Array(CLIENTS).fill(await start())
    : await Promise.all(Array.from({ length: CLIENTS }, start));
  await Promise.all(
    runIds.map(async (runId) => {
      const response = await globalThis.fetch(`${server.url}/runs/${runId}/events`);
      const connectedAt = now();
      await readEvents(response, (event, receivedAt) => {
        delivered += 1;
        // Latency of live events only: those emitted before the client connected are a replay.
        if (event.time >= connectedAt) latencies.push(receivedAt - event.time);
      });
    }),
  );
  const seconds = (now() - started) / 1000;
  const rss = await server.stop();
  return {
    clients: CLIENTS,
    runs: oneRun ? 1 : CLIENTS,
    events: delivered,
    eventsPerSecond: delivered / seconds,
    liveEvents: latencies.length,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    serverPeakRssMb: rss / 1024 / 1024,
  };
}

/** The baseline of 2b: the same 200 runs streamed in-process (`agent.stream()`), no HTTP, no journal. */
async function inProcessRuns() {
  const { createAgent } = loadIdeact();
  const { ScriptedProvider } = loadIdeactTesting();
  const output = 'word '.repeat(200).trim();
  const vessel = JSON.stringify({ calls: [], output });
  const agent = createAgent({
    tools: [],
    provider: new ScriptedProvider(() => ({ calls: [], output }), {
      stream: { chunkSize: Math.ceil(vessel.length / 200), delayMs: 5 },
    }),
  });
  const latencies = [];
  let delivered = 0;
  const started = now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for await (const event of agent.stream({ task: 'go' })) {
        delivered += 1;
        latencies.push(now() - event.time);
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  await agent.dispose();
  return {
    runs: CLIENTS,
    events: delivered,
    eventsPerSecond: delivered / seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
}

const overhead = await perEventOverhead();
const baseline = await inProcessRuns();
const oneRun = await fanOut(true);
const manyRuns = await fanOut(false);
const load = os
  .loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(
  `per-event: in-process ${formatNumber(overhead.inProcessMsPerEvent * 1000)} µs, SSE ${formatNumber(overhead.sseMsPerEvent * 1000)} µs, overhead ${formatNumber(overhead.overheadMsPerEvent * 1000)} µs (${overhead.events} events/run)`,
);
for (const [name, row] of [
  ['200 clients, 1 run', oneRun],
  ['200 clients, 200 runs', manyRuns],
]) {
  console.log(
    `${name}: ${row.events} events, ${formatNumber(row.eventsPerSecond)} events/s, p50 ${formatNumber(row.p50Ms)} ms, p99 ${formatNumber(row.p99Ms)} ms, server peak RSS ${formatNumber(row.serverPeakRssMb)} MB`,
  );
}
console.log(
  `in-process baseline, 200 runs: ${baseline.events} events, ${formatNumber(baseline.eventsPerSecond)} events/s, p50 ${formatNumber(baseline.p50Ms)} ms, p99 ${formatNumber(baseline.p99Ms)} ms`,
);
console.log(`load average ${load}`);
process.stdout.write(
  `BENCH_RESULT ${JSON.stringify({ overhead, oneRun, manyRuns, baseline, load })}\n`,
);
