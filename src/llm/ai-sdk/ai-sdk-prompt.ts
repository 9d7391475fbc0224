import type { ChatMessage, ReasoningPart } from '../../protocol/message';
import type {
  AiSdkJsonObject,
  AiSdkPromptMessage,
  AiSdkProviderData,
  AiSdkReasoningPart,
  AiSdkTextPart,
} from './ai-sdk-model';

/** How ideact's chat messages become an AI SDK prompt for one family. @internal */
export interface PromptOptions {
  /**
   * Move every system message to the front, in order (Anthropic and Gemini take system text only
   * before the conversation; the AI SDK packages reject a system message after a user message).
   */
  hoistSystem: boolean;
  /** Send an assistant message's reasoning back as reasoning parts (Anthropic's thinking blocks). */
  sendReasoning: boolean;
  /** Indexes of messages that end a cacheable prefix (`ProviderRequest.cacheBreakpoints`). */
  cacheBreakpoints?: readonly number[];
  /** The provider options that mark a message cacheable, e.g. Anthropic's `cacheControl`. */
  cacheMark?: AiSdkProviderData;
  /** A system message appended for the schema (prompt-mode structured output). */
  instruction?: ChatMessage;
}

/**
 * Converts rendered chat messages into the specification's prompt: system messages as system
 * messages, user and assistant text as text parts, an assistant message's reasoning (kept from an
 * earlier turn) as reasoning parts before its text, and cache marks as message provider options.
 * Messages with no text and no reasoning are left out (vendors reject empty text blocks).
 */
export function toAiSdkPrompt(
  messages: readonly ChatMessage[],
  options: PromptOptions,
): AiSdkPromptMessage[] {
  const breakpoints = new Set(options.cacheBreakpoints ?? []);
  const cache = options.sendReasoning ? withReasoning : withoutReasoning;
  const converted: AiSdkPromptMessage[] = [];
  messages.forEach((message, index) => {
    let promptMessage = cache.get(message);
    if (promptMessage === undefined) {
      promptMessage = convertMessage(message, options.sendReasoning) ?? null;
      cache.set(message, promptMessage);
    }
    if (promptMessage === null) return;
    const mark = breakpoints.has(index) ? options.cacheMark : undefined;
    // A marked message is a copy: the converted one is shared by every turn that sends it.
    converted.push(
      mark === undefined ? promptMessage : { ...promptMessage, providerOptions: mark },
    );
  });
  if (options.instruction !== undefined) {
    converted.push({ role: 'system', content: options.instruction.content });
  }
  if (!options.hoistSystem) return converted;
  return [
    ...converted.filter((message) => message.role === 'system'),
    ...converted.filter((message) => message.role !== 'system'),
  ];
}

/**
 * Converted messages by message object: an agent sends the same rendered messages every turn (its
 * history only grows), so each is converted once. Messages are values (never edited in place).
 */
const withReasoning = new WeakMap<ChatMessage, AiSdkPromptMessage | null>();
const withoutReasoning = new WeakMap<ChatMessage, AiSdkPromptMessage | null>();

function convertMessage(
  message: ChatMessage,
  sendReasoning: boolean,
): AiSdkPromptMessage | undefined {
  const reasoning =
    sendReasoning && message.role === 'assistant' ? reasoningParts(message.reasoning) : [];
  if (message.content === '' && reasoning.length === 0) return undefined;
  if (message.role === 'system') return { role: 'system', content: message.content };
  const text: AiSdkTextPart[] =
    message.content === '' ? [] : [{ type: 'text', text: message.content }];
  if (message.role === 'user') return { role: 'user', content: text };
  return { role: 'assistant', content: [...reasoning, ...text] };
}

function reasoningParts(parts: readonly ReasoningPart[] | undefined): AiSdkReasoningPart[] {
  return (parts ?? []).map((part) => {
    const converted: AiSdkReasoningPart = { type: 'reasoning', text: part.text };
    if (part.providerMetadata !== undefined) {
      // Given back verbatim: Anthropic accepts a thinking block only with its own signature.
      converted.providerOptions = part.providerMetadata as Record<string, AiSdkJsonObject>;
    }
    return converted;
  });
}
