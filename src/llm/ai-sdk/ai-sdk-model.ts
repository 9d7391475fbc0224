/**
 * The part of the AI SDK's provider specification (`@ai-sdk/provider`: `LanguageModelV3` of the
 * provider packages of ai@6, `LanguageModelV4` of ai@7) that `aiSdkProvider` uses, written out as
 * structural types: ideact depends on no AI SDK package, and a model from either major version (or
 * from another copy of `@ai-sdk/provider`) fits. `test/llm/ai-sdk/ai-sdk-model-types.test.ts` checks
 * that the real types are assignable to these.
 */

/** A JSON value as the specification types it (`JSONValue`). */
export type AiSdkJsonValue = null | string | number | boolean | AiSdkJsonObject | AiSdkJsonValue[];

/** A JSON object as the specification types it (`JSONObject`). */
export interface AiSdkJsonObject {
  [key: string]: AiSdkJsonValue | undefined;
}

/** Provider-specific options sent with a call or a message part, by provider name (`SharedV3ProviderOptions`). */
export type AiSdkProviderData = Record<string, AiSdkJsonObject>;

/** Provider-specific data returned with a result or a part, by provider name (`SharedV3ProviderMetadata`). */
export type AiSdkMetadata = Record<string, Record<string, unknown>>;

/** A text part of a prompt message. */
export interface AiSdkTextPart {
  type: 'text';
  text: string;
  providerOptions?: AiSdkProviderData;
}

/** Reasoning given back in an assistant message (with e.g. Anthropic's signature in `providerOptions`). */
export interface AiSdkReasoningPart {
  type: 'reasoning';
  text: string;
  providerOptions?: AiSdkProviderData;
}

/** One message of the prompt (`LanguageModelV3Message`, the roles and parts ideact sends). */
export type AiSdkPromptMessage =
  | { role: 'system'; content: string; providerOptions?: AiSdkProviderData }
  | { role: 'user'; content: AiSdkTextPart[]; providerOptions?: AiSdkProviderData }
  | {
      role: 'assistant';
      content: Array<AiSdkTextPart | AiSdkReasoningPart>;
      providerOptions?: AiSdkProviderData;
    };

/** The call options ideact sets (`LanguageModelV3CallOptions`). */
export interface AiSdkCallOptions {
  prompt: AiSdkPromptMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  responseFormat?:
    | { type: 'text' }
    | {
        type: 'json';
        /** A JSON Schema (draft 7 as the specification types it). */
        schema?: object;
        name?: string;
        description?: string;
      };
  abortSignal?: AbortSignal;
  headers?: Record<string, string | undefined>;
  providerOptions?: AiSdkProviderData;
}

/** Token counts (`LanguageModelV3Usage`; undefined = not reported). */
export interface AiSdkUsage {
  inputTokens: {
    total?: number | undefined;
    noCache?: number | undefined;
    cacheRead?: number | undefined;
    cacheWrite?: number | undefined;
  };
  outputTokens: {
    total?: number | undefined;
    text?: number | undefined;
    reasoning?: number | undefined;
  };
}

/** Why generation ended (`{ unified, raw }`). */
export interface AiSdkFinishReason {
  unified: string;
  raw?: string | undefined;
}

/** A generated content part; ideact reads text and reasoning and ignores the others. */
export interface AiSdkContent {
  type: string;
  text?: string;
  providerMetadata?: AiSdkMetadata;
}

/** The result of `doGenerate`. */
export interface AiSdkGenerateResult {
  content: ArrayLike<AiSdkContent>;
  /** v4: the text to parse as structured output when it differs from the text parts. */
  structuredOutputText?: string;
  finishReason: AiSdkFinishReason;
  usage: AiSdkUsage;
  response?: { modelId?: string };
}

/** A part of `doStream`'s stream; ideact reads text, reasoning, finish and error parts. */
export interface AiSdkStreamPart {
  type: string;
  id?: string;
  delta?: string;
  providerMetadata?: AiSdkMetadata;
  usage?: AiSdkUsage;
  finishReason?: AiSdkFinishReason;
  error?: unknown;
  modelId?: string;
}

/** The result of `doStream`. */
export interface AiSdkStreamResult {
  stream: ReadableStream<AiSdkStreamPart>;
}

/**
 * A language model of any AI SDK provider package (`anthropic('claude-sonnet-4-5')`,
 * `google('gemini-2.5-flash')`, `createOpenAICompatible({...})('llama3.1')`, …), specification
 * version `v3` (ai@6) or `v4` (ai@7).
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  /** The provider id, e.g. `anthropic.messages`, `google.generative-ai`, `ollama.chat`. */
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: AiSdkCallOptions): PromiseLike<AiSdkGenerateResult>;
  doStream(options: AiSdkCallOptions): PromiseLike<AiSdkStreamResult>;
}

/** The specification versions `aiSdkProvider` supports. */
export const SUPPORTED_SPECIFICATION_VERSIONS: readonly string[] = ['v3', 'v4'];
