/**
 * Issue 19 benchmark: the per-call overhead of consuming an ideact Tool served over MCP through
 * `mcpTools` (an Executor running the toolset's Tool: params check, Call, `tools/call`, output check)
 * against the raw SDK `Client.callTool` calling the same server, over stdio and Streamable HTTP.
 * The server is the built CLI, `ideact mcp serve --config bench/lib/mcp-echo-config.cjs` (one echo
 * Activity). stdio: one server process per client (a stdio server has one client); HTTP: one server
 * process, one session per client. Paired: the two clients alternate call by call (CALLS pairs per
 * round), so a load burst hits both; per-call times are medians, the ratio is the median over rounds
 * of mcpTools ÷ raw (medians in the same round). Prints a table and one `BENCH_RESULT <json>` line.
 *
 *   npm run build && node bench/mcp-overhead.mjs          (ROUNDS=20 CALLS=200)
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { URL } from 'node:url';
import { loadIdeact, ROOT } from './lib/ideact-package.mjs';
import { formatNumber, median } from './lib/stats.mjs';

const ideact = loadIdeact();
if (ideact.loadError) {
  console.error(ideact.loadError);
  process.exit(1);
}
const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const {
  StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ScriptedProvider } = require(path.join(ROOT, 'dist', 'testing', 'index.js'));
const { Executor, mcpTools } = ideact;

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const CALLS = Number(process.env.CALLS ?? 200);
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const CONFIG = path.join(ROOT, 'bench', 'lib', 'mcp-echo-config.cjs');
const SERVE_ARGS = [CLI, 'mcp', 'serve', '--config', CONFIG, '--provider', 'offline'];

/** One call through the raw SDK client; checks the answer. */
async function rawCall(client, index) {
  const result = await client.callTool({ name: 'echo', arguments: { text: 'hello', n: index } });
  if (result.structuredContent?.n !== index)
    throw new Error(`raw: wrong answer ${JSON.stringify(result)}`);
}

/** One ideact Call of the mcpTools toolset's Tool; checks the answer. */
async function ideactCall(executor, index) {
  const run = await executor.run({ _tool: 'echo', text: 'hello', n: index }, []);
  if (run.error !== undefined || run.output?.n !== index) {
    throw new Error(`mcpTools: ${run.error?.message ?? JSON.stringify(run.output)}`);
  }
}

/** One call of the toolset's Activity itself (no Executor): the MCP client layer alone. */
async function activityCall(toolset, index) {
  const output = await toolset.activities.echo(
    { text: 'hello', n: index },
    // A fresh signal per call, as the Executor gives each Call its own.
    { signal: new globalThis.AbortController().signal, callId: `bench_${index}`, attempt: 1 },
  );
  if (output?.n !== index) throw new Error(`activity: wrong answer ${JSON.stringify(output)}`);
}

/** ms of one awaited call. */
async function timed(call) {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/**
 * Paired per call: the clients take turns call by call (who goes first rotates), so load bursts on
 * the shared machine hit all alike. Per round, each variant's median ÷ the raw median; overall, the
 * median per-call times and the median of the rounds' ratios.
 */
async function measure(raw, executor, toolset) {
  const variants = {
    raw: (index) => rawCall(raw, index),
    mcpTools: (index) => ideactCall(executor, index),
    activity: (index) => activityCall(toolset, index),
  };
  const names = Object.keys(variants);
  for (let index = 0; index < CALLS; index++) {
    for (const name of names) await variants[name](index); // warm-up (JIT, schema compilation)
  }
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  const ratios = { mcpTools: [], activity: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const roundSamples = Object.fromEntries(names.map((name) => [name, []]));
    for (let index = 0; index < CALLS; index++) {
      for (let turn = 0; turn < names.length; turn++) {
        const name = names[(turn + round + index) % names.length];
        roundSamples[name].push(await timed(() => variants[name](index)));
      }
    }
    for (const name of names) samples[name].push(...roundSamples[name]);
    for (const name of ['mcpTools', 'activity']) {
      ratios[name].push(median(roundSamples[name]) / median(roundSamples.raw));
    }
  }
  return {
    rawMsPerCall: median(samples.raw),
    mcpToolsMsPerCall: median(samples.mcpTools),
    activityMsPerCall: median(samples.activity),
    ratio: median(ratios.mcpTools),
    activityRatio: median(ratios.activity),
  };
}

async function stdio() {
  const raw = new Client({ name: 'bench-raw', version: '1.0.0' });
  await raw.connect(
    new StdioClientTransport({ command: process.execPath, args: SERVE_ARGS, stderr: 'ignore' }),
  );
  const toolset = await mcpTools({ command: process.execPath, args: SERVE_ARGS });
  try {
    const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
    return await measure(raw, executor, toolset);
  } finally {
    await toolset.close();
    await raw.close();
  }
}

/** Starts `ideact mcp serve --http 0` and resolves to its URL (printed on stderr) and the process. */
function startHttpServer() {
  const child = spawn(process.execPath, [...SERVE_ARGS, '--http', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.once('exit', (code) =>
      reject(new Error(`ideact mcp serve exited with ${code}: ${stderr}`)),
    );
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/[^\s;]+)/.exec(stderr);
      if (match) resolve({ url: new URL(match[1]), child });
    });
  });
}

async function http() {
  const { url, child } = await startHttpServer();
  const raw = new Client({ name: 'bench-raw', version: '1.0.0' });
  try {
    await raw.connect(new StreamableHTTPClientTransport(url));
    const toolset = await mcpTools({ url });
    try {
      const executor = new Executor({ provider: new ScriptedProvider([]), tools: [toolset] });
      return await measure(raw, executor, toolset);
    } finally {
      await toolset.close();
      await raw.close();
    }
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}

const loadBefore = loadavg()[0];
const started = new Date();
const results = { stdio: await stdio(), http: await http() };
const loadAfter = loadavg()[0];

console.log(
  `MCP per-call overhead (${started.toISOString()}, ${ROUNDS} paired rounds × ${CALLS} sequential calls, ` +
    `load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)})`,
);
console.log(
  "| transport | raw SDK `Client.callTool` (ms/call) | `mcpTools` + `Executor.run` (ms/call) | ratio | the toolset's Activity alone (ms/call) | ratio |",
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [transport, result] of Object.entries(results)) {
  console.log(
    `| ${transport} | ${formatNumber(result.rawMsPerCall)} | ${formatNumber(result.mcpToolsMsPerCall)} | ${result.ratio.toFixed(3)} | ` +
      `${formatNumber(result.activityMsPerCall)} | ${result.activityRatio.toFixed(3)} |`,
  );
}
process.stdout.write(
  `BENCH_RESULT ${JSON.stringify({ workload: 'mcp-overhead', rounds: ROUNDS, calls: CALLS, loadBefore, loadAfter, ...results })}\n`,
);
