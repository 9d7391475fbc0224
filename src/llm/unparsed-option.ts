import { hasBrand, setBrand } from '../internal/brand';
import { jsonDepthIssue } from '../protocol/json-depth';

const MARKER = Symbol.for('ideact.unparsedOption');

/**
 * An option whose text could not become a value: not valid JSON, or JSON nested more than
 * MAX_JSON_DEPTH levels deep. Providers return it instead of throwing, so the request pipeline can
 * show the model its own text and the reason, and ask for a repair (R-REQ-3).
 */
export class UnparsedOption {
  /** The reply text exactly as the model wrote it. */
  readonly rawText: string;
  /** Why it could not be used (the JSON parser's message, or the depth limit it exceeds). */
  readonly reason: string;
  /**
   * Set when the text is JSON that cannot be used (nested too deeply): the JSON Pointer of the
   * culprit in the parsed reply. Absent when the text is not JSON.
   */
  readonly jsonPath?: string;

  constructor(rawText: string, reason: string, jsonPath?: string) {
    this.rawText = rawText;
    this.reason = reason;
    if (jsonPath !== undefined) this.jsonPath = jsonPath;
  }

  /** True for an UnparsedOption, also one created by another copy of the package. */
  static isInstance(value: unknown): value is UnparsedOption {
    return hasBrand(value, MARKER);
  }
}
// Branded once on the prototype (its instances inherit it): no per-instance property (issue 28).
setBrand(UnparsedOption.prototype, MARKER);

/** How {@link parseReplyText} reads a reply. */
export interface ParseReplyTextOptions {
  /**
   * Accept only the JSON itself (whitespace around it allowed), as a server enforcing a JSON Schema
   * response format writes it (OpenAI's `json_schema` mode): a Markdown fence or prose around the JSON
   * is then an UnparsedOption to repair. Default false: tolerated, as local models in JSON mode add them.
   */
  jsonOnly?: boolean;
}

/**
 * Parses a model's reply text as JSON. Tolerates what local models often add around JSON (a
 * Markdown code fence, prose before/after the object) unless `jsonOnly`; returns an
 * {@link UnparsedOption} when the text is not JSON or nests more than MAX_JSON_DEPTH levels deep
 * (checked without recursion, before anything walks the value).
 */
export function parseReplyText(text: string, options: ParseReplyTextOptions = {}): unknown {
  const attempts =
    options.jsonOnly === true ? [text] : [text, stripFence(text), outermostJson(text)];
  let firstError: unknown;
  for (const candidate of attempts) {
    if (candidate === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(candidate) as unknown;
    } catch (error) {
      firstError ??= error;
      continue;
    }
    const tooDeep = jsonDepthIssue(value);
    return tooDeep === undefined ? value : new UnparsedOption(text, tooDeep.message, tooDeep.path);
  }
  return new UnparsedOption(
    text,
    firstError instanceof Error ? firstError.message : String(firstError),
  );
}

function stripFence(text: string): string | undefined {
  const match = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(text);
  return match ? match[1] : undefined;
}

function outermostJson(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const close = text[start] === '{' ? '}' : ']';
  const end = text.lastIndexOf(close);
  return end > start ? text.slice(start, end + 1) : undefined;
}
