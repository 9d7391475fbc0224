/**
 * ideact adapter: `createAgent` (Prompter → Generator → Discriminator → Actor over the Executor) for
 * the tool loops and `request()` for structured output, driven by an instant in-process Provider.
 * Like the peers' instant models, the provider parses a fixed JSON text each call (a real provider
 * parses the model's reply too); ideact then validates it against the request schema.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  FINAL_ANSWER,
  PROFILE_VALUE,
  TOOLS,
  WORK_TOOL,
  callForTurn,
  delay,
  eagerCallList,
  eagerSchedule,
  oneSlot,
  playSchedule,
  profileJsonSchema,
  toolParamsJsonSchema,
  workBody,
} from '../lib/fixtures.mjs';
import {
  NO_USAGE,
  PACKAGE_DIRECTORY,
  ROOT,
  loadIdeact,
  loadIdeactTesting,
  missingExports,
} from '../lib/ideact-package.mjs';

export const id = 'ideact';
export const label = 'ideact';
export const packageName = PACKAGE_DIRECTORY ? `ideact (${PACKAGE_DIRECTORY})` : 'ideact (dist/)';

const NEEDS = {
  w1: ['createAgent'],
  w2: ['createAgent'],
  w3: ['request'],
  w9: ['createAgent'],
  w10: ['createAgent'],
  w12: ['createAgent'],
};

/** W10 runs ideact twice: with eager calls (the default) and with `createAgent({ eagerCalls: false })`. */
export const eagerModes = ['eager', 'off'];

/** The reason a workload cannot run yet, or undefined. */
export function unavailable(workload) {
  return missingExports(NEEDS[workload] ?? []);
}

/**
 * W12 (issue 16): W1 with a run-event consumer and/or OpenTelemetry tracing. `stream`: the run is read
 * through `agent.stream()` by a `for await` loop; `trace`: an OpenTelemetry SDK is registered
 * (NodeTracerProvider, SimpleSpanProcessor, InMemorySpanExporter); `batch` with `trace`: the SDK's
 * production processor instead (BatchSpanProcessor into the same exporter, flushed after each run).
 * `scripted` (issue 28, `bench:compare`): the tool loops' model is `ScriptedProvider` from
 * `ideact/testing` (a script function returning each turn's solution object) instead of the instant
 * Provider below, i.e. the model users' own tests drive an agent with.
 */
const variant = { stream: false, scripted: false, exporter: undefined, tracing: undefined };

/**
 * Selects the W12 variant named by the framework id's `+` features (e.g. `ideact+stream+trace`);
 * may be called again to switch (the SDK is registered and unregistered globally); returns the
 * reason when a feature is unknown or unavailable.
 */
export function configure(features) {
  const known = ['stream', 'trace', 'batch', 'scripted'];
  const unknown = features.filter((feature) => !known.includes(feature));
  if (unknown.length > 0) return `unknown ideact variant ${unknown.join('+')}`;
  variant.stream = features.includes('stream');
  variant.scripted = features.includes('scripted');
  if (variant.scripted) {
    const reason = scriptedProviderMissing();
    if (reason) return reason;
  }
  try {
    setTracing(
      features.includes('trace') ? (features.includes('batch') ? 'batch' : 'simple') : undefined,
    );
  } catch (error) {
    return `cannot register the OpenTelemetry SDK: ${String(error.message).split('\n')[0]}`;
  }
  return undefined;
}

/** The OpenTelemetry SDKs of the `trace` variants by span processor, made on first use. */
const sdks = {};

/**
 * Registers (or, with no `processor`, unregisters) one of the root package's OpenTelemetry SDKs
 * (devDependencies `@opentelemetry/sdk-trace-base` and `-node`, resolved from the root so they share
 * ideact's `@opentelemetry/api`) as the global tracer provider with the AsyncLocalStorage context
 * manager, exporting to memory through a simple or a batch span processor.
 */
function setTracing(processor) {
  if (variant.tracing !== undefined && variant.tracing.processor !== processor) {
    const { api } = variant.tracing;
    api.trace.disable();
    api.context.disable();
    api.propagation.disable();
    variant.tracing = undefined;
    variant.exporter = undefined;
  }
  if (processor === undefined || variant.tracing !== undefined) return;
  if (sdks[processor] === undefined) {
    const rootRequire = createRequire(path.join(ROOT, 'package.json'));
    const { InMemorySpanExporter, SimpleSpanProcessor, BatchSpanProcessor } = rootRequire(
      '@opentelemetry/sdk-trace-base',
    );
    const { NodeTracerProvider } = rootRequire('@opentelemetry/sdk-trace-node');
    const exporter = new InMemorySpanExporter();
    const spanProcessor =
      processor === 'batch'
        ? new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, scheduledDelayMillis: 1_000 })
        : new SimpleSpanProcessor(exporter);
    sdks[processor] = {
      processor,
      api: rootRequire('@opentelemetry/api'),
      exporter,
      provider: new NodeTracerProvider({ spanProcessors: [spanProcessor] }),
    };
  }
  variant.tracing = sdks[processor];
  variant.tracing.provider.register();
  variant.exporter = variant.tracing.exporter;
}

/** An instant Provider: `next(callIndex)` returns the JSON text of that generation's solution. */
function instantProvider(next, onModelCall) {
  const provider = {
    name: 'instant',
    calls: 0,
    async generate() {
      onModelCall?.();
      const text = next(provider.calls++);
      return { options: [JSON.parse(text)], usage: { ...NO_USAGE } };
    },
  };
  return provider;
}

/** Why `ideact/testing` cannot give the `scripted` variant its provider, or undefined. */
function scriptedProviderMissing() {
  const testing = loadIdeactTesting();
  if (testing.loadError) return testing.loadError;
  if (typeof testing.ScriptedProvider !== 'function')
    return 'ideact/testing does not export ScriptedProvider';
  try {
    new testing.ScriptedProvider(() => ({ calls: [], output: FINAL_ANSWER }));
  } catch (error) {
    return `new ScriptedProvider(scriptFunction) throws: ${String(error.message).split('\n')[0]}`;
  }
  return undefined;
}

/**
 * A `ScriptedProvider` whose script function returns `solution(callIndex)` (the turn's solution object,
 * as a user's test writes it); `model.calls` counts the generations.
 */
function scriptedProvider(solution, onModelCall) {
  const { ScriptedProvider } = loadIdeactTesting();
  const model = { calls: 0 };
  model.provider = new ScriptedProvider(() => {
    onModelCall?.();
    return solution(model.calls++);
  });
  return model;
}

/** The three W1 tools as ideact ToolSchemas (explicit: an Activity registered under each name). */
function toolSchemas(definitions = TOOLS) {
  return definitions.map((definition) => {
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

/** One Activity per tool; each awaits `toolDelayMs` (W9) before its instant body. */
function activities(counter, toolDelayMs = 0) {
  return Object.fromEntries(
    TOOLS.map((definition) => [
      definition.name,
      async (params) => {
        counter.runs++;
        if (toolDelayMs > 0) await delay(toolDelayMs);
        return definition.run(params);
      },
    ]),
  );
}

const OUTPUT_SCHEMA = { type: 'string' };

function vesselText(calls, output) {
  return JSON.stringify({ calls, output });
}

function toCall(call) {
  return { _tool: call.name, ...call.args };
}

/** Runs the agent; `modelCalls()` counts the generations so far (W12's checks). */
async function runAgent(
  provider,
  counter,
  maxTurns,
  toolDelayMs = 0,
  modelCalls = () => provider.calls,
) {
  const { createAgent } = loadIdeact();
  const agent = createAgent({
    tools: toolSchemas(),
    activities: [activities(counter, toolDelayMs)],
    provider,
  });
  const options = { task: 'Use the tools.', output: OUTPUT_SCHEMA, maxTurns };
  variant.exporter?.reset();
  let result;
  if (variant.stream) {
    const stream = agent.stream(options);
    let events = 0;
    for await (const event of stream) if (event.runId) events++;
    result = await stream.result;
    if (events < modelCalls()) throw new Error(`W12: ${events} events for ${modelCalls()} turns`);
  } else {
    result = await agent.run(options);
  }
  if (variant.tracing?.processor === 'batch') await variant.tracing.provider.forceFlush();
  const spans = variant.exporter?.getFinishedSpans().length;
  if (spans !== undefined && spans < modelCalls() + counter.runs) {
    throw new Error(`W12: ${spans} spans for ${modelCalls()} requests and ${counter.runs} Calls`);
  }
  return result.output;
}

/**
 * W1: one call per generation for `turns` turns, then the answer; the model is the instant Provider,
 * or `ScriptedProvider` in the `scripted` variant.
 */
export async function toolLoop({ turns, onModelCall }) {
  const counter = { runs: 0 };
  if (variant.scripted) {
    const model = scriptedProvider(
      (index) =>
        index >= turns
          ? { calls: [], output: FINAL_ANSWER }
          : { calls: [toCall(callForTurn(index))], output: null },
      onModelCall,
    );
    const answer = await runAgent(model.provider, counter, turns + 5, 0, () => model.calls);
    return { answer, toolRuns: counter.runs, modelCalls: model.calls };
  }
  const provider = instantProvider((index) => {
    if (index >= turns) return vesselText([], FINAL_ANSWER);
    return vesselText([toCall(callForTurn(index))], null);
  }, onModelCall);
  const answer = await runAgent(provider, counter, turns + 5);
  return { answer, toolRuns: counter.runs, modelCalls: provider.calls };
}

/** W2/W9: one generation with `calls` calls (each Activity awaiting `toolDelayMs`), then the answer. */
export async function parallelCalls({ calls, toolDelayMs = 0 }) {
  const counter = { runs: 0 };
  const provider = instantProvider((index) => {
    if (index > 0) return vesselText([], FINAL_ANSWER);
    return vesselText(
      Array.from({ length: calls }, (_, callIndex) => toCall(callForTurn(callIndex))),
      null,
    );
  });
  const answer = await runAgent(provider, counter, 5, toolDelayMs);
  return { answer, toolRuns: counter.runs, modelCalls: provider.calls };
}

/** W3: `count` sequential structured generations (`request()` validates each with ajv). */
export async function structured({ count }) {
  const { request } = loadIdeact();
  const text = JSON.stringify(PROFILE_VALUE);
  const provider = instantProvider(() => text);
  const schema = profileJsonSchema();
  let last;
  for (let index = 0; index < count; index++) {
    last = await request(
      {
        context: [
          { type: 'system', text: 'Extract the profile.' },
          { type: 'text', text: `profile ${index}` },
        ],
        schema,
      },
      { provider },
    );
  }
  return { last, modelCalls: provider.calls };
}

/**
 * W10's model: the first reply is the Vessel of the five `work` Calls, streamed on the shared
 * schedule (Call i's closing brace at (i + 1) × 200 ms); the second is the answer, at once. Without a
 * streaming reader (`eagerCalls: false`, no subscriber) ideact calls `generate()`, which waits for the
 * same schedule and returns the whole reply.
 */
function eagerStreamingProvider() {
  const segments = eagerCallList().map(
    (call, index) => (index === 0 ? '{"calls":[' : ',') + JSON.stringify(toCall(call)),
  );
  const schedule = eagerSchedule(segments, '],"output":null}');
  const answer = vesselText([], FINAL_ANSWER);
  const provider = {
    name: 'eager-stream',
    calls: 0,
    async generate() {
      if (provider.calls++ > 0) return { options: [JSON.parse(answer)], usage: { ...NO_USAGE } };
      let text = '';
      for await (const piece of playSchedule(schedule)) text += piece.text;
      return { options: [JSON.parse(text)], usage: { ...NO_USAGE } };
    },
    async *stream() {
      if (provider.calls++ > 0) {
        yield { type: 'text-delta', delta: answer, index: 0 };
      } else {
        for await (const piece of playSchedule(schedule)) {
          yield { type: 'text-delta', delta: piece.text, index: 0 };
        }
      }
      yield { type: 'finish', finishReason: 'stop', index: 0 };
      yield { type: 'usage', usage: { ...NO_USAGE } };
    },
  };
  return provider;
}

/**
 * W10: the streamed Vessel of five 200 ms Calls, then the answer; `mode` 'eager' (default) or 'off'
 * (`eagerCalls: false`); `serial` makes the Activities share one slot (one at a time).
 */
export async function eagerCalls({ mode, serial }) {
  const { createAgent } = loadIdeact();
  const counter = { runs: 0 };
  const starts = [];
  const origin = { at: 0 };
  const provider = eagerStreamingProvider();
  const agent = createAgent({
    tools: toolSchemas([WORK_TOOL]),
    activities: [{ work: workBody({ counter, starts, origin, slot: serial ? oneSlot() : null }) }],
    provider,
    ...(mode === 'off' ? { eagerCalls: false } : {}),
  });
  origin.at = performance.now();
  const result = await agent.run({ task: 'Do the work.', output: OUTPUT_SCHEMA, maxTurns: 5 });
  return { answer: result.output, toolRuns: counter.runs, modelCalls: provider.calls, starts };
}
