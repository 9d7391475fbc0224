import { hasBrand, setBrand } from '../internal/brand';

const MARKER = Symbol.for('ideact.unparsedOption');

/**
 * An option whose text is not valid JSON. Providers return it instead of throwing, so the request
 * pipeline can show the model its own text and the parse error, and ask for a repair (R-REQ-3).
 */
export class UnparsedOption {
  /** The reply text exactly as the model wrote it. */
  readonly rawText: string;
  /** Why it could not be parsed (the JSON parser's message). */
  readonly reason: string;

  constructor(rawText: string, reason: string) {
    this.rawText = rawText;
    this.reason = reason;
    setBrand(this, MARKER);
  }

  /** True for an UnparsedOption, also one created by another copy of the package. */
  static isInstance(value: unknown): value is UnparsedOption {
    return hasBrand(value, MARKER);
  }
}

/**
 * Parses a model's reply text as JSON. Tolerates what local models often add around JSON (a
 * Markdown code fence, prose before/after the object); returns an {@link UnparsedOption} on failure.
 */
export function parseReplyText(text: string): unknown {
  const attempts = [text, stripFence(text), outermostJson(text)];
  let firstError: unknown;
  for (const candidate of attempts) {
    if (candidate === undefined) continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch (error) {
      firstError ??= error;
    }
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
