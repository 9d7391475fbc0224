/**
 * Issue 30's two figures for `aiSdkProvider` (the AI SDK's models as an ideact Provider):
 *
 * 1. Per-request overhead: one structured request (the W3 10-field schema) through
 *    `aiSdkProvider(model).generate()` next to calling the same model's `doGenerate()` directly (with
 *    the JSON response format and a `JSON.parse` of the reply, what a caller of the model must do at
 *    least), on an instant fake model and on one that answers after 1 ms. For context, the whole
 *    validated request (`runRequest`) next to the AI SDK's own `generateText` + `Output.object`.
 * 2. W1 (3 tools, 200 turns of one call, then the answer) with `aiSdkProvider(mockModel)` next to W1
 *    with the AI SDK's own `ToolLoopAgent` on the same `MockLanguageModelV3`, plus ideact's W1 on its
 *    bare instant Provider (what the adapter costs per turn).
 *
 * Rounds alternate the variants in one process after a warm-up; the report gives medians.
 * Usage: `node bench/ai-sdk-provider.mjs [rounds=5]` (needs `npm run build` at the root and
 * `npm ci` in bench/).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import * as ai from 'ai';
import { Output, ToolLoopAgent, generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  FINAL_ANSWER,
  PROFILE_VALUE,
  PROFILE_ZOD,
  TOOLS,
  callForTurn,
  profileJsonSchema,
  toolParamsJsonSchema,
} from './lib/fixtures.mjs';
import { loadIdeact } from './lib/ideact-package.mjs';
import { vercelAiAdapter } from './lib/vercel-ai-adapter.mjs';
import { formatNumber, median } from './lib/stats.mjs';

const rounds = Number(process.argv[2] ?? 5);
/** AI SDK 6's tools of the W1 fixtures, as bench/frameworks/vercel-ai.mjs makes them. */
const aiSdk6 = vercelAiAdapter(ai, 'v3');
const ideact = loadIdeact();
if (ideact.loadError) throw new Error(ideact.loadError);
const { aiSdkProvider, createAgent, runRequest } = ideact;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A MockLanguageModelV3 whose `doGenerate` returns `content(callIndex)`, after `latencyMs` if set. */
function mockModel(content, latencyMs = 0) {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      if (latencyMs > 0) await sleep(latencyMs);
      const parts = content(calls++);
      const hasCalls = parts.some((part) => part.type === 'tool-call');
      return {
        content: parts,
        finishReason: { unified: hasCalls ? 'tool-calls' : 'stop', raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

// ── Figure 1: per-request overhead ───────────────────────────────────────────
const schema = profileJsonSchema();
const profileText = JSON.stringify(PROFILE_VALUE);
const messages = [
  { role: 'system', content: 'You write user profiles.' },
  { role: 'user', content: 'Ada Lovelace, please.' },
];

async function perRequest(latencyMs, count) {
  const model = mockModel(() => [{ type: 'text', text: profileText }], latencyMs);
  const provider = aiSdkProvider(model, { maxRetries: 0 });
  const callOptions = {
    prompt: [
      { role: 'system', content: messages[0].content },
      { role: 'user', content: [{ type: 'text', text: messages[1].content }] },
    ],
    responseFormat: { type: 'json', schema, name: 'profile' },
  };
  const variants = {
    'model.doGenerate + JSON.parse': async () => {
      const result = await model.doGenerate(callOptions);
      return JSON.parse(result.content[0].text);
    },
    'aiSdkProvider(model).generate': async () =>
      (await provider.generate({ messages, schema, schemaName: 'profile' })).options[0],
    'ideact runRequest (validated) on aiSdkProvider': async () =>
      (
        await runRequest(
          { context: [{ type: 'text', text: messages[1].content }], schema, schemaName: 'profile' },
          { provider },
        )
      ).solution,
    'AI SDK generateText + Output.object (validated)': async () =>
      (
        await generateText({
          model,
          output: Output.object({ schema: PROFILE_ZOD }),
          prompt: messages[1].content,
        })
      ).output,
  };
  for (const run of Object.values(variants)) {
    const value = await run();
    if (value.id !== PROFILE_VALUE.id) throw new Error('figure 1: wrong answer');
  }
  const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, run] of Object.entries(variants)) {
      const started = performance.now();
      for (let index = 0; index < count; index++) await run();
      const microseconds = ((performance.now() - started) * 1000) / count;
      if (round > 0) samples[name].push(microseconds); // round 0 is the warm-up
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, median(values)]),
  );
}

// ── Figure 2: W1 ─────────────────────────────────────────────────────────────
const TURNS = 200;

function ideactTools() {
  return TOOLS.map((definition) => {
    const params = toolParamsJsonSchema(definition);
    return {
      type: 'object',
      description: definition.description,
      properties: { _tool: { const: definition.name }, ...params.properties },
      required: ['_tool', ...params.required],
      additionalProperties: false,
    };
  });
}

function ideactActivities(counter) {
  return Object.fromEntries(
    TOOLS.map((definition) => [
      definition.name,
      async (params) => {
        counter.runs++;
        return definition.run(params);
      },
    ]),
  );
}

function vesselText(turn) {
  if (turn >= TURNS) return JSON.stringify({ calls: [], output: FINAL_ANSWER });
  const call = callForTurn(turn);
  return JSON.stringify({ calls: [{ _tool: call.name, ...call.args }], output: null });
}

async function w1Ideact(provider, counter) {
  const agent = createAgent({
    tools: ideactTools(),
    activities: [ideactActivities(counter)],
    provider,
    // One generate() per turn, as ToolLoopAgent.generate() does (eager calls would stream).
    eagerCalls: false,
  });
  const result = await agent.run({
    task: 'Use the tools.',
    output: { type: 'string' },
    maxTurns: TURNS + 5,
  });
  await agent.dispose?.();
  if (result.output !== FINAL_ANSWER || counter.runs !== TURNS)
    throw new Error('W1 ideact: wrong run');
}

const w1 = {
  'ideact + aiSdkProvider(MockLanguageModelV3)': async () => {
    const model = mockModel((turn) => [{ type: 'text', text: vesselText(turn) }]);
    await w1Ideact(aiSdkProvider(model, { maxRetries: 0 }), { runs: 0 });
  },
  'AI SDK ToolLoopAgent (same mock)': async () => {
    const counter = { runs: 0 };
    const model = mockModel((turn) => {
      if (turn >= TURNS) return [{ type: 'text', text: FINAL_ANSWER }];
      const call = callForTurn(turn);
      return [
        {
          type: 'tool-call',
          toolCallId: `call_${turn}`,
          toolName: call.name,
          input: JSON.stringify(call.args),
        },
      ];
    });
    const agent = new ToolLoopAgent({
      model,
      instructions: 'Use the tools.',
      tools: aiSdk6.makeTools(counter),
      stopWhen: stepCountIs(TURNS + 5),
    });
    const result = await agent.generate({ prompt: 'start' });
    if (result.text !== FINAL_ANSWER || counter.runs !== TURNS)
      throw new Error('W1 ToolLoopAgent: wrong run');
  },
  'ideact + its bare instant Provider': async () => {
    let calls = 0;
    const provider = {
      name: 'instant',
      async generate() {
        return {
          options: [JSON.parse(vesselText(calls++))],
          usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
        };
      },
    };
    await w1Ideact(provider, { runs: 0 });
  },
};

async function w1Figures() {
  const samples = Object.fromEntries(Object.keys(w1).map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, run] of Object.entries(w1)) {
      const started = performance.now();
      await run();
      const msPerTurn = (performance.now() - started) / (TURNS + 1);
      if (round > 0) samples[name].push(msPerTurn);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, median(values)]),
  );
}

// ── Report ───────────────────────────────────────────────────────────────────
const load = os.loadavg()[0];
const instant = await perRequest(0, 2000);
const slow = await perRequest(1, 200);
const loop = await w1Figures();
const direct = 'model.doGenerate + JSON.parse';
const adapter = 'aiSdkProvider(model).generate';
const lines = [
  `Run: ${new Date().toISOString()} · ${rounds} measured rounds after a warm-up, medians · Node ${process.version} · ${os.cpus().length} cores · load ${load.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}`,
  '',
  '| per request (W3 schema)                          | instant model (µs) | 1 ms model (µs) |',
  '| ------------------------------------------------ | ------------------ | --------------- |',
  ...Object.keys(instant).map(
    (name) => `| ${name} | ${formatNumber(instant[name])} | ${formatNumber(slow[name])} |`,
  ),
  `| ratio aiSdkProvider ÷ direct (target ≤ 1.1)       | ${formatNumber(instant[adapter] / instant[direct])} | ${formatNumber(slow[adapter] / slow[direct])} |`,
  '',
  '| W1, 200 turns (ms/turn)                      | ms/turn |',
  '| -------------------------------------------- | ------- |',
  ...Object.entries(loop).map(([name, value]) => `| ${name} | ${formatNumber(value)} |`),
  `| ToolLoopAgent ÷ ideact + aiSdkProvider (target ≥ 3) | ${formatNumber(loop['AI SDK ToolLoopAgent (same mock)'] / loop['ideact + aiSdkProvider(MockLanguageModelV3)'])} |`,
];
console.log(lines.join('\n'));
