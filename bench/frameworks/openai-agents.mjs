/**
 * OpenAI Agents SDK adapter: an `Agent` run by a `Runner` (tracing disabled: no network), driven by an
 * instant in-process `Model` that replays the workload script (no recording, no latency); W10 runs
 * the Runner with `stream: true` over a Model whose `getStreamedResponse` follows the shared schedule.
 */
import { performance } from 'node:perf_hooks';
import { Agent, Runner, Usage, tool } from '@openai/agents';
import {
  FINAL_ANSWER,
  PROFILE_VALUE,
  PROFILE_ZOD,
  TOOLS,
  WORK_TOOL,
  callForTurn,
  delay,
  eagerCallList,
  eagerSchedule,
  oneSlot,
  playSchedule,
  workBody,
} from '../lib/fixtures.mjs';

export const id = 'openai-agents';
export const label = 'OpenAI Agents SDK';
export const packageName = '@openai/agents';

/** An instant Model: `next(callIndex)` returns the output items of that model call. */
class InstantModel {
  constructor(next, onModelCall) {
    this.next = next;
    this.onModelCall = onModelCall;
    this.calls = 0;
  }
  async getResponse() {
    this.onModelCall?.();
    const output = this.next(this.calls++);
    return { usage: new Usage(), output, responseId: undefined };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error('streaming is not used by the benchmark');
  }
}

function functionCall(index, name, args) {
  return {
    type: 'function_call',
    callId: `call_${index}`,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  };
}

function assistantText(text) {
  return {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  };
}

/** The W1 tools; each awaits `toolDelayMs` (W9) before its instant body. */
function makeTools(counter, toolDelayMs = 0) {
  return TOOLS.map((definition) =>
    tool({
      name: definition.name,
      description: definition.description,
      parameters: definition.zod,
      execute: async (input) => {
        counter.runs++;
        if (toolDelayMs > 0) await delay(toolDelayMs);
        return JSON.stringify(definition.run(input));
      },
    }),
  );
}

const runner = new Runner({ tracingDisabled: true });

/** W1: one tool call per model call for `turns` turns, then the answer. */
export async function toolLoop({ turns, onModelCall }) {
  const counter = { runs: 0 };
  const model = new InstantModel((index) => {
    if (index >= turns) return [assistantText(FINAL_ANSWER)];
    const call = callForTurn(index);
    return [functionCall(index, call.name, call.args)];
  }, onModelCall);
  const agent = new Agent({
    name: 'bench',
    instructions: 'Use the tools.',
    model,
    tools: makeTools(counter),
  });
  const result = await runner.run(agent, 'start', { maxTurns: turns + 5 });
  return { answer: result.finalOutput, toolRuns: counter.runs, modelCalls: model.calls };
}

/** W2/W9: one model call with `calls` tool calls (each tool awaiting `toolDelayMs`), then the answer. */
export async function parallelCalls({ calls, toolDelayMs = 0 }) {
  const counter = { runs: 0 };
  const model = new InstantModel((index) => {
    if (index > 0) return [assistantText(FINAL_ANSWER)];
    return Array.from({ length: calls }, (_, callIndex) => {
      const call = callForTurn(callIndex);
      return functionCall(callIndex, call.name, call.args);
    });
  });
  const agent = new Agent({
    name: 'bench',
    instructions: 'Use the tools.',
    model,
    tools: makeTools(counter, toolDelayMs),
  });
  const result = await runner.run(agent, 'start', { maxTurns: 5 });
  return { answer: result.finalOutput, toolRuns: counter.runs, modelCalls: model.calls };
}

/** W3: `count` sequential structured generations (the SDK parses and validates with zod). */
export async function structured({ count }) {
  const text = JSON.stringify(PROFILE_VALUE);
  const model = new InstantModel(() => [assistantText(text)]);
  const agent = new Agent({
    name: 'bench',
    instructions: 'Extract the profile.',
    model,
    outputType: PROFILE_ZOD,
  });
  let last;
  for (let index = 0; index < count; index++) {
    const result = await runner.run(agent, `profile ${index}`);
    last = result.finalOutput;
  }
  return { last, modelCalls: model.calls };
}

const NO_TOKENS = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * W10's streaming Model: the first `getStreamedResponse` streams the five `work` function calls'
 * arguments on the shared schedule (as the Responses API's `function_call_arguments.delta` events,
 * each call's last piece at (i + 1) × 200 ms), then `response_done` with the calls; the second
 * streams the answer at once.
 */
class EagerStreamingModel {
  constructor() {
    this.calls = 0;
    this.list = eagerCallList();
    this.schedule = eagerSchedule(
      this.list.map((call) => JSON.stringify(call.args)),
      '',
    );
  }
  async getResponse() {
    throw new Error('W10 streams');
  }
  async *getStreamedResponse() {
    const first = this.calls++ === 0;
    yield { type: 'response_started' };
    if (!first) {
      yield { type: 'output_text_delta', delta: FINAL_ANSWER };
      yield {
        type: 'response_done',
        response: { id: 'answer', usage: NO_TOKENS, output: [assistantText(FINAL_ANSWER)] },
      };
      return;
    }
    for await (const piece of playSchedule(this.schedule)) {
      if (piece.segment >= this.list.length) break;
      yield {
        type: 'model',
        event: {
          type: 'response.function_call_arguments.delta',
          item_id: `call_${piece.segment}`,
          delta: piece.text,
        },
      };
    }
    yield {
      type: 'response_done',
      response: {
        id: 'calls',
        usage: NO_TOKENS,
        output: this.list.map((call, index) => functionCall(index, call.name, call.args)),
      },
    };
  }
}

/**
 * W10: `runner.run(agent, input, { stream: true })` over the streamed function calls, then the
 * answer (the SDK has no switch for when tools start: `mode` is always 'default'); `serial` makes
 * the tool bodies share one slot.
 */
export async function eagerCalls({ serial }) {
  const counter = { runs: 0 };
  const starts = [];
  const origin = { at: 0 };
  const model = new EagerStreamingModel();
  const agent = new Agent({
    name: 'bench',
    instructions: 'Do the work.',
    model,
    tools: [
      tool({
        name: WORK_TOOL.name,
        description: WORK_TOOL.description,
        parameters: WORK_TOOL.zod,
        execute: workBody({ counter, starts, origin, slot: serial ? oneSlot() : null }),
      }),
    ],
  });
  origin.at = performance.now();
  const result = await runner.run(agent, 'start', { stream: true, maxTurns: 5 });
  for await (const event of result) void event;
  await result.completed;
  return { answer: result.finalOutput, toolRuns: counter.runs, modelCalls: model.calls, starts };
}
