/**
 * The Vercel AI SDK adapter, for any major version whose API the benchmark uses (`generateText` with
 * tools and a step limit, `Output.object`, `streamText`, `tool`, `stepCountIs`): bench/frameworks/
 * vercel-ai.mjs drives AI SDK 6 and vercel-ai-7.mjs AI SDK 7 through it. The instant in-process model
 * implements the language-model interface the given version takes natively (`v3` for 6, `v4` for 7,
 * the same shape for what the workloads use), so neither SDK pays for wrapping an older model.
 */
import { performance } from 'node:perf_hooks';
import { ReadableStream } from 'node:stream/web';
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
} from './fixtures.mjs';

/**
 * The W1, W2/W9, W3 and W10 bodies (and the W1 tools, `makeTools`) on `sdk` (the `ai` module), with
 * models of `specificationVersion` ('v3' or 'v4').
 */
export function vercelAiAdapter(sdk, specificationVersion) {
  const { Output, generateText, stepCountIs, streamText, tool } = sdk;

  const USAGE = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };

  /** An instant LanguageModelV3: `next(callIndex)` returns the content of that model call. */
  function instantModel(next, onModelCall) {
    const model = {
      specificationVersion,
      provider: 'bench',
      modelId: 'instant',
      supportedUrls: {},
      calls: 0,
      async doGenerate() {
        onModelCall?.();
        const content = next(model.calls++);
        const hasCalls = content.some((part) => part.type === 'tool-call');
        return {
          content,
          finishReason: { unified: hasCalls ? 'tool-calls' : 'stop', raw: undefined },
          usage: USAGE,
          warnings: [],
        };
      },
      async doStream() {
        throw new Error('streaming is not used by the benchmark');
      },
    };
    return model;
  }

  function toolCall(index, name, args) {
    return {
      type: 'tool-call',
      toolCallId: `call_${index}`,
      toolName: name,
      input: JSON.stringify(args),
    };
  }

  /** The W1 tools; each awaits `toolDelayMs` (W9) before its instant body. */
  function makeTools(counter, toolDelayMs = 0) {
    return Object.fromEntries(
      TOOLS.map((definition) => [
        definition.name,
        tool({
          description: definition.description,
          inputSchema: definition.zod,
          execute: async (input) => {
            counter.runs++;
            if (toolDelayMs > 0) await delay(toolDelayMs);
            return definition.run(input);
          },
        }),
      ]),
    );
  }

  /** W1: one tool call per model call for `turns` turns, then the answer. */
  async function toolLoop({ turns, onModelCall }) {
    const counter = { runs: 0 };
    const model = instantModel((index) => {
      if (index >= turns) return [{ type: 'text', text: FINAL_ANSWER }];
      const call = callForTurn(index);
      return [toolCall(index, call.name, call.args)];
    }, onModelCall);
    const result = await generateText({
      model,
      tools: makeTools(counter),
      system: 'Use the tools.',
      prompt: 'start',
      stopWhen: stepCountIs(turns + 5),
    });
    return { answer: result.text, toolRuns: counter.runs, modelCalls: model.calls };
  }

  /** W2/W9: one model call with `calls` tool calls (each tool awaiting `toolDelayMs`), then the answer. */
  async function parallelCalls({ calls, toolDelayMs = 0 }) {
    const counter = { runs: 0 };
    const model = instantModel((index) => {
      if (index > 0) return [{ type: 'text', text: FINAL_ANSWER }];
      return Array.from({ length: calls }, (_, callIndex) => {
        const call = callForTurn(callIndex);
        return toolCall(callIndex, call.name, call.args);
      });
    });
    const result = await generateText({
      model,
      tools: makeTools(counter, toolDelayMs),
      system: 'Use the tools.',
      prompt: 'start',
      stopWhen: stepCountIs(5),
    });
    return { answer: result.text, toolRuns: counter.runs, modelCalls: model.calls };
  }

  /** W3: `count` sequential structured generations (`Output.object` parses and validates with zod). */
  async function structured({ count }) {
    const text = JSON.stringify(PROFILE_VALUE);
    const model = instantModel(() => [{ type: 'text', text }]);
    const output = Output.object({ schema: PROFILE_ZOD });
    let last;
    for (let index = 0; index < count; index++) {
      const result = await generateText({ model, output, prompt: `profile ${index}` });
      last = result.output;
    }
    return { last, modelCalls: model.calls };
  }

  /**
   * W10's streaming LanguageModelV3: the first `doStream` streams the five `work` tool calls on the
   * shared schedule (each call's input in pieces as `tool-input-delta` parts, its `tool-call` part with
   * the last piece at (i + 1) × 200 ms), then `finish`; the second streams the answer at once.
   */
  function eagerStreamingModel() {
    const calls = eagerCallList();
    const schedule = eagerSchedule(
      calls.map((call) => JSON.stringify(call.args)),
      '',
    );
    const model = {
      specificationVersion,
      provider: 'bench',
      modelId: 'eager-stream',
      supportedUrls: {},
      calls: 0,
      async doGenerate() {
        throw new Error('W10 streams');
      },
      async doStream() {
        const first = model.calls++ === 0;
        async function* parts() {
          yield { type: 'stream-start', warnings: [] };
          if (!first) {
            yield { type: 'text-start', id: 'answer' };
            yield { type: 'text-delta', id: 'answer', delta: FINAL_ANSWER };
            yield { type: 'text-end', id: 'answer' };
            yield {
              type: 'finish',
              finishReason: { unified: 'stop', raw: undefined },
              usage: USAGE,
            };
            return;
          }
          let opened = -1;
          for await (const piece of playSchedule(schedule)) {
            if (piece.segment >= calls.length) break;
            const id = `call_${piece.segment}`;
            if (opened !== piece.segment) {
              opened = piece.segment;
              yield { type: 'tool-input-start', id, toolName: WORK_TOOL.name };
            }
            yield { type: 'tool-input-delta', id, delta: piece.text };
            if (piece.last) {
              yield { type: 'tool-input-end', id };
              yield {
                type: 'tool-call',
                toolCallId: id,
                toolName: WORK_TOOL.name,
                input: JSON.stringify(calls[piece.segment].args),
              };
            }
          }
          yield {
            type: 'finish',
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage: USAGE,
          };
        }
        return { stream: ReadableStream.from(parts()) };
      },
    };
    return model;
  }

  /**
   * W10: `streamText` over the streamed tool calls, then the answer (the SDK has no switch for when
   * tools start: `mode` is always 'default'); `serial` makes the tool bodies share one slot.
   */
  async function eagerCalls({ serial }) {
    const counter = { runs: 0 };
    const starts = [];
    const origin = { at: 0 };
    const model = eagerStreamingModel();
    const tools = {
      [WORK_TOOL.name]: tool({
        description: WORK_TOOL.description,
        inputSchema: WORK_TOOL.zod,
        execute: workBody({ counter, starts, origin, slot: serial ? oneSlot() : null }),
      }),
    };
    origin.at = performance.now();
    const result = streamText({
      model,
      tools,
      system: 'Do the work.',
      prompt: 'start',
      stopWhen: stepCountIs(5),
    });
    await result.consumeStream();
    return { answer: await result.text, toolRuns: counter.runs, modelCalls: model.calls, starts };
  }

  return { toolLoop, parallelCalls, structured, eagerCalls, makeTools };
}
