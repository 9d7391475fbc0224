/**
 * ideact adapter: `createAgent` (Prompter → Generator → Discriminator → Actor over the Executor) for
 * the tool loops and `request()` for structured output, driven by an instant in-process Provider.
 * Like the peers' instant models, the provider parses a fixed JSON text each call (a real provider
 * parses the model's reply too); ideact then validates it against the request schema.
 */
import {
  FINAL_ANSWER,
  PROFILE_VALUE,
  TOOLS,
  callForTurn,
  delay,
  profileJsonSchema,
  toolParamsJsonSchema,
} from '../lib/fixtures.mjs';
import { NO_USAGE, loadIdeact, missingExports } from '../lib/ideact-package.mjs';

export const id = 'ideact';
export const label = 'ideact';
export const packageName = 'ideact (dist/)';

const NEEDS = { w1: ['createAgent'], w2: ['createAgent'], w3: ['request'], w9: ['createAgent'] };

/** The reason a workload cannot run yet, or undefined. */
export function unavailable(workload) {
  return missingExports(NEEDS[workload] ?? []);
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

/** The three W1 tools as ideact ToolSchemas (explicit: an Activity registered under each name). */
function toolSchemas() {
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

async function runAgent(provider, counter, maxTurns, toolDelayMs = 0) {
  const { createAgent } = loadIdeact();
  const agent = createAgent({
    tools: toolSchemas(),
    activities: [activities(counter, toolDelayMs)],
    provider,
  });
  const result = await agent.run({ task: 'Use the tools.', output: OUTPUT_SCHEMA, maxTurns });
  return result.output;
}

/** W1: one call per generation for `turns` turns, then the answer. */
export async function toolLoop({ turns, onModelCall }) {
  const counter = { runs: 0 };
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
