/**
 * LangGraph.js adapter: the prebuilt ReAct agent (`createReactAgent`: a StateGraph of model node +
 * ToolNode) for the tool loops, and a chat model piped into LangChain's `StructuredOutputParser`
 * (zod validation) for structured output. The model is an instant in-process `BaseChatModel`
 * subclass returning `AIMessage`s with `tool_calls` (LangChain's own fakes cannot emit tool calls).
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { StructuredOutputParser } from '@langchain/core/output_parsers';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import {
  FINAL_ANSWER,
  PROFILE_VALUE,
  PROFILE_ZOD,
  TOOLS,
  callForTurn,
  delay,
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
