/**
 * The ideact-only workloads, one per process: `node bench/ideact-only.mjs <w4|w5|w6|w7|w8>`.
 * W4 parallel modules, W5 prompt size (inline vs module scope), W6 merge/render scaling,
 * W7 codegen of 200 Ideas, W8 CLI cold start and package import cost (time and RSS over bare
 * `node`). Prints one `BENCH_RESULT <json>` line; a missing API gives `{ unavailable: reason }`,
 * never a made-up figure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIST_ENTRY, NO_USAGE, ROOT, loadIdeact, missingExports } from './lib/ideact-package.mjs';
import { measuredRuns, median, warmAndMeasure } from './lib/stats.mjs';

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

// ── W4: 100 module calls through Executor.all, provider latency 50 ms ─────────────────────────────
const MODULE_CALLS = 100;
const LATENCY_MS = 50;

async function w4(runs) {
  const reason = missingExports(['Executor']);
  if (reason) return { unavailable: reason };
  const { Executor } = loadIdeact();
  const tool = {
    type: 'object',
    description: 'Summarises a text in a clean room.',
    properties: {
      _tool: { const: 'summarise' },
      text: { type: 'string' },
      _module: { const: 'anonymous' },
      _output: {
        type: 'object',
        properties: { summary: { type: 'string' } },
        required: ['summary'],
        additionalProperties: false,
      },
    },
    required: ['_tool', 'text'],
  };
  const provider = {
    name: 'latency-50ms',
    generations: 0,
    async generate() {
      provider.generations++;
      await sleep(LATENCY_MS);
      return { options: [{ summary: 'ok' }], usage: { ...NO_USAGE } };
    },
  };
  const executor = new Executor({ provider, tools: [tool], concurrency: MODULE_CALLS });
  const calls = Array.from({ length: MODULE_CALLS }, (_, index) => ({
    _tool: 'summarise',
    text: `text ${index}`,
  }));
  const context = [{ type: 'system', text: 'Parent context the modules must not see.' }];
  const samples = await warmAndMeasure(runs, async () => {
    const before = provider.generations;
    const started = performance.now();
    const batch = await executor.all(calls, context);
    const wall = performance.now() - started;
    // BatchResult (`messages`: every call's result then its state patches).
    const flat = Array.isArray(batch?.messages) ? batch.messages : [];
    const results = flat.filter((message) => message && message.type === 'result');
    const failed = results.filter((message) => message.error);
    if (
      provider.generations - before !== MODULE_CALLS ||
      results.length !== MODULE_CALLS ||
      failed.length > 0
    ) {
      throw new Error(
        `W4 check failed: ${provider.generations - before} generations, ${results.length} results, ` +
          `${failed.length} failed (${failed[0] ? JSON.stringify(failed[0].error) : ''})`,
      );
    }
    return wall;
  });
  const wallMs = median(samples);
  return { wallMs, parallelRatio: wallMs / LATENCY_MS, runs: samples.length };
}

// ── W5: parent prompt tokens, 30 tools with 40-property outputs, inline vs module scope ───────────
const TOOL_COUNT = 30;
const OUTPUT_PROPERTIES = 40;
const PROPERTY_TYPES = ['string', 'number', 'integer', 'boolean'];

function bigOutputSchema(toolIndex) {
  const properties = {};
  for (let index = 0; index < OUTPUT_PROPERTIES; index++) {
    properties[`metric_${toolIndex}_${index}`] = {
      type: PROPERTY_TYPES[index % PROPERTY_TYPES.length],
      description: `Measured value number ${index} of the report produced by tool ${toolIndex}.`,
    };
  }
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function promptSizeTools(scope) {
  return Array.from({ length: TOOL_COUNT }, (_, toolIndex) => ({
    type: 'object',
    description: `Produces report ${toolIndex} about a topic.`,
    properties: {
      _tool: { const: `report_${toolIndex}` },
      topic: { type: 'string', description: 'What the report is about.' },
      depth: { type: 'integer', description: 'How detailed the report is (1-5).' },
      ...(scope === 'module' ? { _module: { const: 'anonymous' } } : {}),
      _output: bigOutputSchema(toolIndex),
    },
    required: ['_tool', 'topic', 'depth'],
  }));
}

function capturingProvider() {
  const provider = {
    name: 'capturing',
    requests: [],
    async generate(request) {
      provider.requests.push(request);
      return { options: [{ calls: [], output: 'done' }], usage: { ...NO_USAGE } };
    },
  };
  return provider;
}

async function tokensOf(request) {
  const { countTokens, encodeChat } = await import('gpt-tokenizer');
  const messages = request.messages.map((message) => ({
    role: message.role,
    content: message.content,
  }));
  const messageTokens = encodeChat(messages, 'gpt-4o').length;
  const schemaTokens = countTokens(JSON.stringify(request.schema));
  return { messageTokens, schemaTokens, total: messageTokens + schemaTokens };
}

async function parentPrompt(scope, via) {
  const ideact = loadIdeact();
  const provider = capturingProvider();
  const tools = promptSizeTools(scope);
  const task = 'Write the quarterly reports with the tools.';
  if (via === 'agent') {
    const agent = ideact.createAgent({ tools, provider });
    await agent.run({ task, output: { type: 'string' }, maxTurns: 1 });
  } else {
    const schema = ideact.buildVesselSchema(tools, { type: 'string' });
    await ideact.request({ context: [{ type: 'text', text: task }], schema }, { provider });
  }
  if (provider.requests.length === 0) throw new Error(`W5: the ${scope} parent sent no request`);
  const first = provider.requests[0];
  const schemaJson = JSON.stringify(first.schema);
  return { ...(await tokensOf(first)), outputShown: schemaJson.includes('metric_0_0') };
}

async function w5() {
  let via = 'agent';
  let reason = missingExports(['createAgent']);
  if (reason) {
    via = 'request';
    const fallback = missingExports(['buildVesselSchema', 'request']);
    if (fallback) return { unavailable: `${reason}; ${fallback}` };
  }
  const inline = await parentPrompt('inline', via);
  const module = await parentPrompt('module', via);
  return {
    via,
    inline,
    module,
    moduleTokenSaving: 1 - module.total / inline.total,
    note:
      via === 'agent'
        ? undefined
        : 'createAgent n/a: measured the vessel request the generator would send',
  };
}

// ── W6: renderMessages over 10 … 10,000 data messages ─────────────────────────────────────────────
const RENDER_SIZES = [10, 100, 1000, 10000];
const KINDS = Array.from({ length: 40 }, (_, index) => `kind_${index}`);

function dataMessages(count) {
  const messages = [{ type: 'system', text: 'You are a planner.' }];
  for (let index = 0; index < count; index++) {
    const variant = index % 10;
    if (variant === 0) {
      messages.push({ type: 'data', data: { note: `free-standing note ${index}`, index } });
    } else if (variant === 1) {
      messages.push({ type: 'state', state: { progress: { [`step_${index % 25}`]: index } } });
    } else if (variant === 2) {
      messages.push({
        type: 'input',
        input: { request: `item ${index}`, size: index },
        _instance: `inst_${index % 4}`,
      });
    } else {
      const kind = KINDS[index % KINDS.length];
      messages.push({
        type: 'data',
        kind,
        data: {
          [`field_${index % 30}`]: { value: index, label: `label ${index}` },
          updated: index,
        },
        ...(variant % 3 === 0 ? { _instance: `inst_${index % 4}` } : {}),
        ...(index % 97 === 0
          ? { description: `Facts of ${kind}.`, schema: { type: 'object' } }
          : {}),
      });
    }
  }
  return messages;
}

async function w6(runs) {
  const reason = missingExports(['renderMessages']);
  if (reason) return { unavailable: reason };
  const { renderMessages } = loadIdeact();
  const sizes = [];
  for (const size of RENDER_SIZES) {
    // Small inputs are repeated so that each sample lasts long enough to time. Every repeat renders
    // fresh message objects (built before the clock starts): ideact caches renders per message
    // object, and W6 measures rendering, not cache hits.
    const repeats = Math.max(1, Math.floor(20000 / size));
    const samples = await warmAndMeasure(runs, async () => {
      const batches = Array.from({ length: repeats }, () => dataMessages(size));
      const started = performance.now();
      let rendered;
      for (const messages of batches) rendered = renderMessages(messages);
      if (!Array.isArray(rendered) || rendered.length === 0)
        throw new Error('W6: renderMessages returned nothing');
      return (performance.now() - started) / repeats;
    });
    const ms = median(samples);
    sizes.push({ messages: size, ms, msPerMessage: ms / size });
  }
  const perMessage = sizes.map((entry) => entry.msPerMessage);
  return {
    sizes,
    growth: perMessage[perMessage.length - 1] / perMessage[perMessage.length - 2],
    runs,
  };
}

// ── W7: codegen of 200 Ideas ──────────────────────────────────────────────────────────────────────
const IDEA_COUNT = 200;

function writeIdeas(directory) {
  const paths = [];
  for (let index = 0; index < IDEA_COUNT; index++) {
    const inputSchema = {
      type: 'object',
      properties: {
        topic: { type: 'string', description: 'The subject.' },
        length: { type: 'integer', minimum: 1 },
        tone: { type: 'string', enum: ['formal', 'casual'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['topic'],
    };
    const outputSchema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        body: { type: 'string' },
        score: { type: 'number' },
        approved: { type: 'boolean' },
        sections: {
          type: 'array',
          items: {
            type: 'object',
            properties: { heading: { type: 'string' }, text: { type: 'string' } },
            required: ['heading'],
          },
        },
        meta: {
          type: 'object',
          properties: { words: { type: 'integer' }, language: { type: 'string' } },
        },
      },
      required: ['title', 'body'],
    };
    const idea = {
      name: `writer_${index}`,
      description: `Writer number ${index}: drafts a piece on a topic.`,
      context: [
        { type: 'system', text: `You are writer ${index}.` },
        { type: 'input', input: { topic: 'example' }, schema: inputSchema },
      ],
      schema: outputSchema,
    };
    const file = path.join(directory, `writer-${index}.idea.json`);
    writeFileSync(file, JSON.stringify(idea, null, 2));
    paths.push(file);
  }
  return paths;
}

async function w7(runs) {
  const reason = missingExports(['generateFromIdeas']);
  if (reason) return { unavailable: reason };
  const { generateFromIdeas } = loadIdeact();
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'ideact-bench-codegen-'));
  try {
    const ideaDirectory = path.join(workDirectory, 'ideas');
    mkdirSync(ideaDirectory);
    const paths = writeIdeas(ideaDirectory);
    let runIndex = 0;
    const samples = await warmAndMeasure(runs, async () => {
      const outDir = path.join(workDirectory, `out-${runIndex++}`);
      const started = performance.now();
      const result = await generateFromIdeas(paths, { outDir, moduleRoot: ideaDirectory });
      const wall = performance.now() - started;
      const written = existsSync(outDir)
        ? readdirSync(outDir).filter((name) => name.endsWith('.ts'))
        : [];
      if (written.length < IDEA_COUNT || (result?.files && result.files.length !== IDEA_COUNT)) {
        throw new Error(
          `W7: generateFromIdeas wrote ${written.length} .ts files for ${IDEA_COUNT} Ideas`,
        );
      }
      return wall;
    });
    const ms = median(samples);
    return { ms, msPerIdea: ms / IDEA_COUNT, ideas: IDEA_COUNT, runs: samples.length };
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

// ── W8: CLI cold start and package import ─────────────────────────────────────────────────────────
function timeSpawn(args) {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (child.status !== 0) {
    throw new Error(
      `W8: node ${args.join(' ')} exited ${child.status}: ${(child.stderr || '').split('\n')[0]}`,
    );
  }
  return { wall, stdout: child.stdout };
}

/** Prints the process's RSS (bytes) and CPU time (ms) when `-e` reaches it. */
const REPORT_PROCESS_COST =
  'const u=process.cpuUsage();' +
  'process.stdout.write(JSON.stringify({rss:process.memoryUsage().rss,cpuMs:(u.user+u.system)/1000}))';

/** One cold `node -e` process running `prelude` (with the dist entry as argv[1]): wall, RSS, CPU. */
function coldProcess(prelude) {
  const { wall, stdout } = timeSpawn(['-e', prelude + REPORT_PROCESS_COST, DIST_ENTRY]);
  const { rss, cpuMs } = JSON.parse(stdout);
  return { wall, rssMb: rss / 2 ** 20, cpuMs };
}

/**
 * Import cost (issue 15): cold `require('ideact')` against bare `node`, the two interleaved so that load
 * drift hits both alike; medians of `runs` processes each, the figures are the differences.
 */
async function importCost(runs) {
  const pairs = await warmAndMeasure(runs, () => ({
    bare: coldProcess(''),
    imported: coldProcess('require(process.argv[1]);'),
  }));
  const over = (key) =>
    median(pairs.map((pair) => pair.imported[key])) - median(pairs.map((pair) => pair.bare[key]));
  return {
    importMsOverBareNode: over('wall'),
    importCpuMsOverBareNode: over('cpuMs'),
    importRssMbOverBareNode: over('rssMb'),
    bareNodeMs: median(pairs.map((pair) => pair.bare.wall)),
    bareNodeRssMb: median(pairs.map((pair) => pair.bare.rssMb)),
    importRuns: runs,
  };
}

async function w8(runs) {
  const cli = path.join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(DIST_ENTRY) || !existsSync(cli))
    return { unavailable: 'dist/ is missing (run `npm run build`)' };
  const helpRuns = Math.max(runs, 7);
  const help = await warmAndMeasure(helpRuns, () => timeSpawn([cli, '--help']).wall);
  const baseline = await warmAndMeasure(helpRuns, () => timeSpawn(['-e', '0']).wall);
  const importScript =
    'const s=process.hrtime.bigint();require(process.argv[1]);' +
    'process.stdout.write(String(Number(process.hrtime.bigint()-s)/1e6))';
  const imports = await warmAndMeasure(helpRuns, () =>
    Number(timeSpawn(['-e', importScript, DIST_ENTRY]).stdout),
  );
  const helpOutput = timeSpawn([cli, '--help']).stdout;
  return {
    cliHelpMs: median(help),
    nodeBaselineMs: median(baseline),
    requireMs: median(imports),
    ...(await importCost(Math.max(runs, 15))),
    helpListsCommands: /codegen/.test(helpOutput) && /run/.test(helpOutput),
    runs: helpRuns,
  };
}

const WORKLOADS = { w4, w5, w6, w7, w8 };

async function main() {
  const workload = process.argv[2];
  const body = WORKLOADS[workload];
  if (!body)
    throw new Error(
      `unknown workload ${workload}; expected one of ${Object.keys(WORKLOADS).join(', ')}`,
    );
  const result = await body(measuredRuns());
  emit({ workload, framework: 'ideact', ...result });
}

main().catch((error) => {
  emit({ workload: process.argv[2], framework: 'ideact', error: String(error?.stack ?? error) });
  process.exitCode = 1;
});
