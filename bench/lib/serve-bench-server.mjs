/**
 * The server of `bench/serve-sse.mjs` (issue 32), in its own process so its RSS is its own: an agent
 * whose scripted model streams an answer of `BENCH_DELTAS` deltas, `BENCH_DELAY_MS` apart, served by
 * `createRunHandler` over a FileRunStore in a temp folder on node:http (127.0.0.1). Prints
 * `PORT <n>`; on SIGTERM prints `RSS <peak bytes>` and exits.
 */
import { promises as fs, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as os from 'node:os';
import path from 'node:path';
import { loadIdeact, loadIdeactTesting } from './ideact-package.mjs';

const { createAgent, createRunHandler, FileRunStore, toNodeListener } = loadIdeact();
const { ScriptedProvider } = loadIdeactTesting();
const deltas = Number(process.env.BENCH_DELTAS ?? 200);
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 5);
const output = 'word '.repeat(deltas).trim();
const vessel = JSON.stringify({ calls: [], output });
const agent = createAgent({
  tools: [],
  provider: new ScriptedProvider(() => ({ calls: [], output }), {
    stream: { chunkSize: Math.max(1, Math.ceil(vessel.length / deltas)), delayMs },
  }),
});
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-bench-serve-'));
const store = new FileRunStore({ dir });
const handler = createRunHandler(agent, { store, maxConcurrentRuns: 10_000 });
const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});

/** Peak resident set size (VmHWM) of this process, in bytes. */
function peakRss() {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match === null ? process.memoryUsage().rss : Number(match[1]) * 1024;
}

process.once('SIGTERM', async () => {
  process.stdout.write(`RSS ${peakRss()}\n`);
  server.closeAllConnections();
  server.close();
  await handler.close();
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });
  process.exit(0);
});
