import { RefusalError } from '../errors/refusal.error';
import { TruncatedResponseError } from '../errors/truncated-response.error';
import { UnparsedOption, parseReplyText } from './unparsed-option';

/** The finished text of one option (a Chat Completion choice, or the deltas of one streamed index). */
export interface ReplyText {
  /** Which of the `n` options this is. */
  index: number;
  /** The whole text the model wrote for this option. */
  content: string;
  /** A refusal text, when the model refused. */
  refusal?: string | null;
  /** Why generation stopped (`stop`, `length`, `content_filter`, …); null when unknown. */
  finishReason?: string | null;
}

/** How {@link parseReplies} names the model and turns parsed JSON into the solution. @internal */
export interface ParseRepliesOptions {
  /** Named in refusal and truncation errors. */
  model?: string;
  /** Applied to each parsed JSON value (e.g. converting a strict-schema reply back); identity by default. */
  convert?: (value: unknown) => unknown;
  /** Accept the JSON only, no fence or prose around it (a server enforcing a JSON Schema); see {@link parseReplyText}. */
  jsonOnly?: boolean;
}

/**
 * Turns the finished replies into options, the same way for a complete and a streamed reply. Refused,
 * filtered and truncated replies are dropped; when none is left, the first such failure is thrown as a
 * typed error. Unparseable text, and JSON nested more than MAX_JSON_DEPTH levels, becomes an
 * {@link UnparsedOption} for the pipeline to repair. @internal
 */
export function parseReplies(
  replies: readonly ReplyText[],
  options: ParseRepliesOptions = {},
): unknown[] {
  const { model, convert = (value: unknown) => value, jsonOnly = false } = options;
  const parsed: unknown[] = [];
  let failure: Error | undefined;
  const ordered = [...replies].sort((left, right) => left.index - right.index);
  for (const reply of ordered) {
    const content = reply.content;
    if (typeof reply.refusal === 'string' && reply.refusal !== '') {
      failure ??= new RefusalError({ refusal: reply.refusal, model });
    } else if (reply.finishReason === 'content_filter') {
      failure ??= new RefusalError({
        refusal: 'the reply was blocked by the content filter',
        model,
      });
    } else if (reply.finishReason === 'length') {
      failure ??= new TruncatedResponseError({ rawText: content, model });
    } else if (content.trim() === '') {
      parsed.push(new UnparsedOption(content, 'the reply was empty'));
    } else {
      // Too deep or not JSON: an UnparsedOption, never converted (the conversion walks the value).
      const value = parseReplyText(content, { jsonOnly });
      parsed.push(UnparsedOption.isInstance(value) ? value : convert(value));
    }
  }
  if (parsed.length === 0 && failure !== undefined) throw failure;
  return parsed;
}
