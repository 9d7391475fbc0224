import { declareAppendOnly } from '../runs/state-edits';
import { formatJson } from '../protocol/format-json';
import type { ChatMessage, Message, ResultMessage } from '../protocol/message';
import { IncrementalRenderer } from './incremental-renderer';
import { renderMessage } from '../protocol/render-messages';
import type { RequestConfig } from '../runs/request-config';
import { prepareRequest } from '../requests/prepare-request';
import type { AgentRuntime } from './agent-runtime';
import type { AgentNode, AgentState, GeneratorStep, VesselMessage } from '../runs/agent-state';
import { PathMemo } from '../runs/path-memo';
import { pathView } from '../runs/state-tree';
import { vesselSchemaFor } from './vessel-schema-cache';
import { cacheBreakpoints } from './cache-breakpoints';
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
    const { state, settings } = agent;
    const path = pathView(state);
    const trimmedOnes = trimmedOriginals(state);
    let messages = promptMessages.values(state, path);
    // With the default handlers only, the prompt is rendered incrementally (what was rendered last
    // turn is reused), so a turn costs the same at turn 200 as at turn 2; the output is identical.
    const incremental =
      (settings.handlers ?? []).length === 0 ? incrementalRendererFor(state) : undefined;
    let config: RequestConfig = {};
    const render = async (context: readonly Message[]): Promise<ChatMessage[]> => {
      if (incremental !== undefined) return incremental.render(context);
      // Custom handlers may read or change the schema: they get this turn's Vessel schema.
      const { schema } = await vesselSchemaFor(agent);
      const draft = await prepareRequest({ context: [...context], schema }, {}, settings.handlers);
      config = draft.config;
      return draft.messages;
    };
    let rendered =
      incremental !== undefined
        ? incremental.render(messages, promptMessages.version(state))
        : await render(messages);
    const budget = settings.promptTokenBudget;
    // The incremental renderer keeps its character count: no pass over the history per turn.
    const size = incremental !== undefined ? incremental.characters : characters(rendered);
    if (Math.ceil(size / 4) > budget) {
      // Oldest first; state patches (data) are never trimmed: they are the run's memory. The savings
      // are estimated per result (default rendering), then the prompt is rendered once more, so a
      // long run costs two renders per turn, not one per trimmed result. Trimmed stays trimmed.
      const trimmable = path
        .map((node, index) =>
          node.message.type === 'result' &&
          node.message.error === undefined &&
          messages[index] === node.message
            ? index
            : -1,
        )
        .filter((index) => index >= 0);
      const editable = [...messages];
      messages = editable;
      let excess = characters(rendered) - budget * 4;
      let next = 0;
      for (; next < trimmable.length && excess > 0; next++) {
        const index = trimmable[next] as number;
        const original = editable[index] as ResultMessage;
        const trimmed = trimmedResult(original);
        excess -= renderMessage(original).content.length - renderMessage(trimmed).content.length;
        editable[index] = trimmed;
        trimmedOnes.add(original);
        promptMessages.replace(state, index, trimmed);
      }
      rendered = await render(messages);
      // Custom handlers may render results differently: finish one result at a time if needed.
      for (; next < trimmable.length && estimateTokens(rendered) > budget; next++) {
        const index = trimmable[next] as number;
        const original = editable[index] as ResultMessage;
        editable[index] = trimmedResult(original);
        trimmedOnes.add(original);
        promptMessages.replace(state, index, editable[index] as Message);
        rendered = await render(messages);
      }
    }
    const args: GeneratorStep['args'] = { messages: rendered };
    const breakpoints = cacheBreakpoints(rendered);
    if (breakpoints.length > 0) args.cacheBreakpoints = breakpoints;
    const chosen = definedFields(config);
    if (chosen !== undefined) args.config = chosen;
    state.nextStep = { module: 'generator', args };
  }
}

/** The config's set fields, or undefined when it sets none (the default handlers set none). */
function definedFields(config: RequestConfig): RequestConfig | undefined {
  let chosen: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    chosen ??= {};
    chosen[key] = value;
  }
  return chosen as RequestConfig | undefined;
}

/** The path's protocol messages per state, extended turn by turn (R-REQ-1 without O(history) work). */
const promptMessages = new PathMemo<Message>((node, state) =>
  toMessage(node, trimmedOriginals(state)),
);

const renderers = new WeakMap<AgentState, IncrementalRenderer>();

function incrementalRendererFor(state: AgentState): IncrementalRenderer {
  let renderer = renderers.get(state);
  if (renderer === undefined) {
    renderer = new IncrementalRenderer();
    renderers.set(state, renderer);
  }
  return renderer;
}

const trimmedSets = new WeakMap<AgentState, WeakSet<ResultMessage>>();

/** The results this run already trimmed (kept trimmed, so the prompt prefix stays stable). */
function trimmedOriginals(state: AgentState): WeakSet<ResultMessage> {
  let set = trimmedSets.get(state);
  if (set === undefined) {
    set = new WeakSet();
    trimmedSets.set(state, set);
  }
  return set;
}

/** Vessel choices as assistant text, per Vessel object: the history is re-sent every turn (R-REQ-1). */
const vesselTexts = new WeakMap<VesselMessage, Message>();

/** A node as a protocol message: Vessel choices become assistant text holding the same JSON. */
function toMessage(node: AgentNode, trimmed: WeakSet<ResultMessage>): Message {
  if (node.message.type === 'result' && trimmed.has(node.message)) {
    return trimmedResult(node.message);
  }
  if (node.message.type !== 'vessel') return node.message;
  let message = vesselTexts.get(node.message);
  if (message === undefined) {
    const reasoning = node.message.reasoning;
    message = {
      type: 'text',
      role: 'assistant',
      text: formatJson({ calls: node.message.calls, output: node.message.output }),
      // Providers that need the reasoning of earlier turns (Anthropic thinking) get it back.
      ...(reasoning === undefined || reasoning.length === 0 ? {} : { reasoning }),
    };
    vesselTexts.set(node.message, message);
  }
  return message;
}

// It only appends nodes and sets nextStep: the path caches may trust what they checked (issue 28).
declareAppendOnly(BasicPrompter);
