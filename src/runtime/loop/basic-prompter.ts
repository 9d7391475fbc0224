import { formatJson } from '../../protocol/format-json';
import type { ChatMessage, Message, ResultMessage } from '../../protocol/message';
import { renderMessage } from '../../protocol/render-messages';
import type { RequestConfig } from '../request/message-handler';
import { prepareRequest } from '../request/prepare-request';
import type { AgentRuntime } from './agent-runtime';
import type { AgentNode, GeneratorStep, VesselMessage } from './agent-state';
import { pathTo } from './state-tree';
import { vesselSchemaFor } from './vessel-schema-cache';
import type { StepModule } from './step-module';

/** The note that replaces a trimmed result's output, so the LLM still knows the Call happened. */
export const TRIMMED_OUTPUT_NOTE = '[output omitted to fit the prompt budget]';

/** Rough token estimate used for the budget: characters / 4 (no tokenizer, provider-agnostic). */
export function estimateTokens(messages: ChatMessage[]): number {
  return Math.ceil(characters(messages) / 4);
}

function characters(messages: ChatMessage[]): number {
  let count = 0;
  for (const message of messages) count += message.content.length;
  return count;
}

/** The trimmed form of a result, one object per original so its render is cached across turns. */
const trimmedResults = new WeakMap<ResultMessage, ResultMessage>();

function trimmedResult(original: ResultMessage): ResultMessage {
  let trimmed = trimmedResults.get(original);
  if (trimmed === undefined) {
    trimmed = { type: 'result', call: original.call, output: TRIMMED_OUTPUT_NOTE };
    trimmedResults.set(original, trimmed);
  }
  return trimmed;
}

/**
 * The default Prompter (R-LOOP-2): takes the nodes on the path from the root to the head and renders
 * them with the message-handler pipeline (R-REQ-2: data merged across the whole path and rendered per
 * seed 004, results included, earlier Vessel choices as assistant messages), trims the outputs of the oldest results while the estimate exceeds
 * `settings.promptTokenBudget`, and hands the messages to the Generator.
 */
export class BasicPrompter implements StepModule {
  async run(agent: AgentRuntime): Promise<void> {
    const path = pathTo(agent.state);
    const messages = path.map(toMessage);
    const { schema } = await vesselSchemaFor(agent);
    let config: RequestConfig = {};
    const render = async (context: Message[]): Promise<ChatMessage[]> => {
      const draft = await prepareRequest({ context, schema }, {}, agent.settings.handlers);
      config = draft.config;
      return draft.messages;
    };
    let rendered = await render(messages);
    const budget = agent.settings.promptTokenBudget;
    if (estimateTokens(rendered) > budget) {
      // Oldest first; state patches (data) are never trimmed: they are the run's memory. The savings
      // are estimated per result (default rendering), then the prompt is rendered once more, so a
      // long run costs two renders per turn, not one per trimmed result.
      const trimmable = path
        .map((node, index) =>
          node.message.type === 'result' && node.message.error === undefined ? index : -1,
        )
        .filter((index) => index >= 0);
      let excess = characters(rendered) - budget * 4;
      let next = 0;
      for (; next < trimmable.length && excess > 0; next++) {
        const index = trimmable[next] as number;
        const original = messages[index] as ResultMessage;
        const trimmed = trimmedResult(original);
        excess -= renderMessage(original).content.length - renderMessage(trimmed).content.length;
        messages[index] = trimmed;
      }
      rendered = await render(messages);
      // Custom handlers may render results differently: finish one result at a time if needed.
      for (; next < trimmable.length && estimateTokens(rendered) > budget; next++) {
        const index = trimmable[next] as number;
        messages[index] = trimmedResult(messages[index] as ResultMessage);
        rendered = await render(messages);
      }
    }
    const args: GeneratorStep['args'] = { messages: rendered };
    const chosen = Object.fromEntries(
      Object.entries(config).filter(([, value]) => value !== undefined),
    ) as RequestConfig;
    if (Object.keys(chosen).length > 0) args.config = chosen;
    agent.state.nextStep = { module: 'generator', args };
  }
}

/** Vessel choices as assistant text, per Vessel object: the history is re-sent every turn (R-REQ-1). */
const vesselTexts = new WeakMap<VesselMessage, Message>();

/** A node as a protocol message: Vessel choices become assistant text holding the same JSON. */
function toMessage(node: AgentNode): Message {
  if (node.message.type !== 'vessel') return node.message;
  let message = vesselTexts.get(node.message);
  if (message === undefined) {
    message = {
      type: 'text',
      role: 'assistant',
      text: formatJson({ calls: node.message.calls, output: node.message.output }),
    };
    vesselTexts.set(node.message, message);
  }
  return message;
}
