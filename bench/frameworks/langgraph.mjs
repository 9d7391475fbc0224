/**
 * LangGraph.js adapter: the prebuilt ReAct agent (`createReactAgent`: a StateGraph of model node +
 * ToolNode) for the tool loops, and a chat model piped into LangChain's `StructuredOutputParser`
 * (zod validation) for structured output. The model is an instant in-process `BaseChatModel`
 * subclass returning `AIMessage`s with `tool_calls` (LangChain's own fakes cannot emit tool calls);
 * W10 streams the graph (`streamMode: 'messages'`) over a model whose `_streamResponseChunks` emits
 * `tool_call_chunks` on the shared schedule.
 */
import { performance } from 'node:perf_hooks';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { StructuredOutputParser } from '@langchain/core/output_parsers';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
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

export const id = 'langgraph';
export const label = 'LangGraph.js';
export const packageName = '@langchain/langgraph';

/** An instant chat model: `next(callIndex)` returns the AIMessage of that model call. */
class InstantChatModel extends BaseChatModel {
  constructor(next, onModelCall) {
    super({});
    this.next = next;
    this.onModelCall = onModelCall;
    this.calls = 0;
  }
  _llmType() {
    return 'instant';
  }
  bindTools() {
    return this;
  }
  async _generate() {
    this.onModelCall?.();
    const message = this.next(this.calls++);
    return {
      generations: [{ text: typeof message.content === 'string' ? message.content : '', message }],
    };
  }
}

function toolCallMessage(calls) {
  return new AIMessage({
    content: '',
    tool_calls: calls.map(({ index, name, args }) => ({
      id: `call_${index}`,
      name,
      args,
      type: 'tool_call',
    })),
  });
}

/** The W1 tools; each awaits `toolDelayMs` (W9) before its instant body. */
function makeTools(counter, toolDelayMs = 0) {
  return TOOLS.map((definition) =>
    tool(
      async (input) => {
        counter.runs++;
        if (toolDelayMs > 0) await delay(toolDelayMs);
        return JSON.stringify(definition.run(input));
      },
      { name: definition.name, description: definition.description, schema: definition.zod },
    ),
  );
}

/** W1: one tool call per model call for `turns` turns, then the answer. */
export async function toolLoop({ turns, onModelCall }) {
  const counter = { runs: 0 };
  const llm = new InstantChatModel((index) => {
    if (index >= turns) return new AIMessage(FINAL_ANSWER);
    return toolCallMessage([{ index, ...callForTurn(index) }]);
  }, onModelCall);
  const agent = createReactAgent({ llm, tools: makeTools(counter), prompt: 'Use the tools.' });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'start' }] },
    { recursionLimit: 2 * turns + 10 },
  );
  const answer = result.messages[result.messages.length - 1].content;
  return { answer, toolRuns: counter.runs, modelCalls: llm.calls };
}

/** W2/W9: one model call with `calls` tool calls (each tool awaiting `toolDelayMs`), then the answer. */
export async function parallelCalls({ calls, toolDelayMs = 0 }) {
  const counter = { runs: 0 };
  const llm = new InstantChatModel((index) => {
    if (index > 0) return new AIMessage(FINAL_ANSWER);
    return toolCallMessage(
      Array.from({ length: calls }, (_, callIndex) => ({
        index: callIndex,
        ...callForTurn(callIndex),
      })),
    );
  });
  const agent = createReactAgent({
    llm,
    tools: makeTools(counter, toolDelayMs),
    prompt: 'Use the tools.',
  });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'start' }] },
    { recursionLimit: 20 },
  );
  const answer = result.messages[result.messages.length - 1].content;
  return { answer, toolRuns: counter.runs, modelCalls: llm.calls };
}

/** W3: `count` sequential structured generations (StructuredOutputParser parses and validates with zod). */
export async function structured({ count }) {
  const text = JSON.stringify(PROFILE_VALUE);
  const llm = new InstantChatModel(() => new AIMessage(text));
  const chain = llm.pipe(StructuredOutputParser.fromZodSchema(PROFILE_ZOD));
  let last;
  for (let index = 0; index < count; index++) {
    last = await chain.invoke(`profile ${index}`);
  }
  return { last, modelCalls: llm.calls };
}

/**
 * W10's streaming chat model: the first call streams the five `work` tool calls as
 * `tool_call_chunks` on the shared schedule (each call's last piece at (i + 1) × 200 ms); the second
 * streams the answer at once. LangChain uses `_streamResponseChunks` when the graph is streamed.
 */
class EagerStreamingChatModel extends BaseChatModel {
  constructor() {
    super({});
    this.calls = 0;
    this.list = eagerCallList();
    this.schedule = eagerSchedule(
      this.list.map((call) => JSON.stringify(call.args)),
      '',
    );
  }
  _llmType() {
    return 'eager-stream';
  }
  bindTools() {
    return this;
  }
  async *_streamResponseChunks() {
    if (this.calls++ > 0) {
      yield new ChatGenerationChunk({
        text: FINAL_ANSWER,
        message: new AIMessageChunk({ content: FINAL_ANSWER }),
      });
      return;
    }
    let opened = -1;
    for await (const piece of playSchedule(this.schedule)) {
      if (piece.segment >= this.list.length) break;
      const chunk = { args: piece.text, index: piece.segment, type: 'tool_call_chunk' };
      if (opened !== piece.segment) {
        opened = piece.segment;
        Object.assign(chunk, { id: `call_${piece.segment}`, name: WORK_TOOL.name });
      }
      yield new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({ content: '', tool_call_chunks: [chunk] }),
      });
    }
  }
  async _generate(messages, options, runManager) {
    this.generateCalls = (this.generateCalls ?? 0) + 1;
    let merged;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
      merged = merged === undefined ? chunk : merged.concat(chunk);
    }
    return { generations: [merged] };
  }
}

/**
 * W10: the ReAct graph streamed with `streamMode: 'messages'` over the streamed tool calls, then the
 * answer (LangGraph has no switch for when tools start: `mode` is always 'default'); `serial` makes
 * the tool bodies share one slot.
 */
export async function eagerCalls({ serial }) {
  const counter = { runs: 0 };
  const starts = [];
  const origin = { at: 0 };
  const llm = new EagerStreamingChatModel();
  const work = tool(workBody({ counter, starts, origin, slot: serial ? oneSlot() : null }), {
    name: WORK_TOOL.name,
    description: WORK_TOOL.description,
    schema: WORK_TOOL.zod,
  });
  const agent = createReactAgent({ llm, tools: [work], prompt: 'Do the work.' });
  origin.at = performance.now();
  const stream = await agent.stream(
    { messages: [{ role: 'user', content: 'start' }] },
    { recursionLimit: 20, streamMode: ['messages', 'values'] },
  );
  let last;
  for await (const [mode, chunk] of stream) if (mode === 'values') last = chunk;
  // LangChain really streamed the model (it never fell back to `_generate`).
  if (llm.generateCalls) throw new Error('W10: LangChain called _generate instead of streaming');
  const answer = last.messages[last.messages.length - 1].content;
  return { answer, toolRuns: counter.runs, modelCalls: llm.calls, starts };
}
