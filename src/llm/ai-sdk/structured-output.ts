import type { JSONSchema } from '../../protocol/json-schema';
import type { ChatMessage } from '../../protocol/message';
import { jsonObjectInstruction } from '../openai/chat-request-body';
import { converterFor } from '../openai/parse-completion';
import { fromStrictSolution } from '../strict/from-strict-solution';
import { toStrictSchema } from '../strict/to-strict-schema';
import type { AiSdkLanguageModel } from './ai-sdk-model';
import { toGeminiSchema } from './gemini-schema';

/**
 * How a provider family does structured output, which decides how the schema is sent (docs/providers.md,
 * "Structured output per provider family").
 */
export type AiSdkFamily = 'openai' | 'anthropic' | 'google' | 'openai-compatible' | 'other';

/**
 * `native`: the schema goes in the call's JSON response format, in the form the family accepts
 * (the package sends it as the vendor's structured output, or as its tool-based JSON mode);
 * `prompt`: JSON mode with the schema in a system message, for servers that reject schemas.
 */
export type AiSdkStructuredOutput = 'native' | 'prompt';

/** How one request's schema is sent and how a reply comes back to the original schema's shape. @internal */
export interface SchemaPlan {
  /** Sent as `responseFormat.schema`; undefined: JSON mode without a schema. */
  responseSchema?: JSONSchema;
  /** A system message showing the schema, for families that may not enforce it. */
  instruction?: ChatMessage;
  /** Turns a parsed reply back into the original schema's shape (the pipeline then validates it). */
  convert: (value: unknown) => unknown;
  /** Where the schema went, for docs and debugging. */
  sentAs: 'response-format' | 'response-format+prompt' | 'prompt';
}

/**
 * The family of a model, from its provider id (`anthropic.messages`, `google.generative-ai`,
 * `vertex.anthropic.messages`, `openai.chat`, `<name>.chat` of `@ai-sdk/openai-compatible`, …).
 */
export function familyOf(model: AiSdkLanguageModel): AiSdkFamily {
  const provider = model.provider.toLowerCase();
  if (provider.startsWith('anthropic') || provider.includes('.anthropic')) return 'anthropic';
  if (provider.startsWith('google') || provider.startsWith('vertex')) return 'google';
  if (provider.startsWith('openai') || provider.startsWith('azure')) return 'openai';
  // `@ai-sdk/openai-compatible` chat models say whether the server enforces JSON schemas.
  if (
    typeof (model as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs ===
    'boolean'
  ) {
    return 'openai-compatible';
  }
  return 'other';
}

/** Plans by schema object: the agent sends the same Vessel schema object every turn. */
const plans = new WeakMap<JSONSchema, Map<string, SchemaPlan>>();

/**
 * Plans how `schema` is sent to a model of `family` (docs/providers.md has the table). Every path
 * keeps the original schema for validation: the request pipeline validates the converted-back reply
 * against it and repairs (R-REQ-3), so a keyword moved into a description is still enforced. Plans
 * are kept per schema object (schemas are values: ideact never edits one in place), so a long run
 * converts its Vessel schema once, not on every turn.
 */
export function schemaPlan(
  schema: JSONSchema,
  schemaName: string | undefined,
  family: AiSdkFamily,
  mode: AiSdkStructuredOutput,
  model: AiSdkLanguageModel,
): SchemaPlan {
  const enforced = (model as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs;
  const key = `${family}|${mode}|${String(enforced)}|${schemaName ?? ''}`;
  let byKey = plans.get(schema);
  if (byKey === undefined) {
    byKey = new Map();
    plans.set(schema, byKey);
  }
  let plan = byKey.get(key);
  if (plan === undefined) {
    plan = planFor(schema, schemaName, family, mode, enforced === true);
    byKey.set(key, plan);
  }
  return plan;
}

function planFor(
  schema: JSONSchema,
  schemaName: string | undefined,
  family: AiSdkFamily,
  mode: AiSdkStructuredOutput,
  enforced: boolean,
): SchemaPlan {
  const strict = (): SchemaPlan => ({
    responseSchema: toStrictSchema(schema),
    convert: (value) => fromStrictSolution(value, schema),
    sentAs: 'response-format',
  });
  const prompt = (): SchemaPlan => ({
    instruction: jsonObjectInstruction(schema, schemaName),
    convert: converterFor(schema, 'json_object'),
    sentAs: 'prompt',
  });
  if (mode === 'prompt') return prompt();
  switch (family) {
    case 'openai':
    case 'anthropic':
      return strict();
    case 'google': {
      const gemini = toGeminiSchema(toStrictSchema(schema));
      if (gemini === undefined) return prompt();
      return {
        responseSchema: gemini,
        convert: (value) => fromStrictSolution(value, schema),
        sentAs: 'response-format',
      };
    }
    case 'openai-compatible':
      return enforced ? strict() : prompt();
    default: {
      // An unknown package may drop the schema silently: it goes in the prompt too, in the same form.
      const plan = strict();
      const shown = plan.responseSchema as JSONSchema;
      return {
        ...plan,
        instruction: jsonObjectInstruction(shown, schemaName),
        sentAs: 'response-format+prompt',
      };
    }
  }
}
