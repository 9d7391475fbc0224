import { InvalidSolutionError } from '../errors/invalid-solution.error';
import { RequestAbortedError } from '../errors/request-aborted.error';
import type { Provider, ProviderRequest, Usage } from '../llm/provider';
import { UnparsedOption } from '../llm/unparsed-option';
import { addUsage, emptyUsage } from '../llm/usage';
import { jsonDepthIssue, MAX_JSON_DEPTH } from '../protocol/json-depth';
import type { JSONSchema } from '../protocol/json-schema';
import {
  validatorFor,
  type JsonValidator,
  type ValidationIssue,
} from '../protocol/json-validation';
import type { ChatMessage, Message, ReasoningPart } from '../protocol/message';
import type { MessageHandler, RequestConfig, RequestDraft } from './message-handler';
import { isPromiseLike } from '../internal/is-promise-like';
import { renderRequest } from './prepare-request';
import { repairPrompt } from './repair-prompt';
import type { RunContext } from '../runs/run-context';
import { sendRequest } from './send-request';
import { isAborted } from '../internal/is-aborted';

/** One Request: context + schema → solution (DESIGN §1). */
export interface RequestInput {
  /** The context messages; rendered afresh for this request (R-REQ-1). */
  context: Message[];
  /** The JSON Schema the solution must satisfy. */
  schema: JSONSchema;
  /** A short name for the schema (OpenAI's `json_schema.name`); `solution` when absent. */
  schemaName?: string;
}

/** How a request runs: the provider, extra handlers, repairs, cancellation and model settings. */
export interface RequestOptions {
  /** The LLM backend. */
  provider: Provider;
  /** Handlers registered after the defaults (they override them for the messages they match). */
  handlers?: MessageHandler[];
  /** How many times an invalid reply is sent back with its errors before failing (default 2). */
  maxRepairs?: number;
  /** Cancels the request; the provider call rejects with `RequestAbortedError`. */
  signal?: AbortSignal;
  /** Model name for this request (handlers may change it). */
  model?: string;
  /** Sampling temperature for this request (handlers may change it). */
  temperature?: number;
  /** How many options to generate (default 1); repairs ask for one. */
  n?: number;
  /**
   * The run the request belongs to: it receives `request-start`, `solution-delta` (when observed)
   * and `request-end` events, and its signal cancels the request when `signal` is not given.
   */
  run?: RunContext;
  /** Receives the solution's text deltas as they arrive (the request then streams). */
  onDelta?: (delta: string, index: number) => void;
  /**
   * Asked before each repair (R-REQ-3); `false` fails at once with `InvalidSolutionError` (the
   * Generator does so when Calls of the invalid solution already started).
   */
  canRepair?: () => boolean;
}

/** What `runRequest` returns besides the solution. */
export interface RequestResult {
  /** The first valid option. */
  solution: unknown;
  /** Every valid option of the last reply (more than one when `n > 1`). */
  options: unknown[];
  /** Tokens of every provider call, repairs included. */
  usage: Usage;
  /** The chat messages the first provider call received (what the handlers rendered). */
  messages: ChatMessage[];
  /** How many repair rounds were needed (0 when the first reply was valid). */
  repairs: number;
  /**
   * The model's reasoning for each of `options` (same order), when the provider returned any: the
   * agent keeps it with the Vessel and sends it back on the next turns.
   */
  reasoning?: ReasoningPart[][];
}

interface CheckedOption {
  value: unknown;
  rawText: string;
  issues: ValidationIssue[];
}

/**
 * Runs one Request and returns the solution plus usage, the valid options and the rendered
 * messages. Invalid JSON or a schema violation is sent back to the model with the errors, up to
 * `maxRepairs` times (R-REQ-3); then `InvalidSolutionError` carries the raw text and the issues.
 */
export function runRequest(input: RequestInput, options: RequestOptions): Promise<RequestResult> {
  let draft: RequestDraft | Promise<RequestDraft>;
  try {
    // Rendered without a promise when every handler is synchronous (issue 28: one request, one
    // provider call, and as few turns of the microtask queue as that takes).
    draft = renderRequest(
      input,
      {
        model: options.model,
        temperature: options.temperature,
        n: options.n,
        schemaName: input.schemaName,
      },
      options.handlers,
    );
  } catch (error) {
    return Promise.reject(error);
  }
  return isPromiseLike(draft)
    ? draft.then((rendered) => runRenderedRequest(rendered, options))
    : runRenderedRequest(draft, options);
}

/** A request whose messages are already rendered (by `prepareRequest` or a Prompter). */
export interface RenderedRequest {
  /** The chat messages to send, as the handler pipeline rendered them. */
  messages: ChatMessage[];
  /** The JSON Schema the solution must satisfy. */
  schema: JSONSchema;
  /** `schema` compiled by `compileValidator`, when the caller keeps one across requests (the agent's Vessel). */
  validator?: JsonValidator;
  /** Model settings (model, temperature, n, schemaName). */
  config: RequestConfig;
  /** Indexes of `messages` ending a prefix the next request repeats (`ProviderRequest.cacheBreakpoints`). */
  cacheBreakpoints?: number[];
}

/**
 * The second half of {@link runRequest}: sends already rendered messages, validates and repairs
 * (R-REQ-3). The agent's Generator uses it with the Prompter's messages, so the handler pipeline
 * runs once per turn, not twice. `options.model`/`temperature`/`n` fill what `config` leaves unset.
 */
export async function runRenderedRequest(
  draft: RenderedRequest,
  options: RequestOptions,
): Promise<RequestResult> {
  const config: RequestConfig = {
    model: draft.config.model ?? options.model,
    temperature: draft.config.temperature ?? options.temperature,
    n: draft.config.n ?? options.n,
    schemaName: draft.config.schemaName,
  };
  // Compiling fails fast with InvalidSchemaError, before any tokens are spent.
  const validator = draft.validator ?? validatorFor(draft.schema);
  // Copied only when a repair extends the conversation (the provider must not change the messages).
  let conversation = draft.messages;
  let usage = emptyUsage();
  const signal = options.signal ?? options.run?.signal;
  // Small on purpose (issue 28): the optimizing compiler takes this loop in the first runs of a
  // process; checking options, building the result and repairing are plain functions beside it.
  for (let repairs = 0; ; repairs++) {
    if (signal !== undefined && isAborted(signal))
      throw new RequestAbortedError({ cause: signal.reason });
    const response = await sendRequest(
      options.provider,
      providerRequestOf(draft, conversation, config, repairs, signal),
      { run: options.run, attempt: repairs, onDelta: options.onDelta },
    );
    usage = addUsage(usage, response.usage);
    const checked = checkOptions(validator, response.options);
    if (checked.valid.length > 0) {
      return resultOf(checked, response.reasoning, usage, draft.messages, repairs);
    }
    conversation = repairedConversation(conversation, checked.first, repairs, config, options);
  }
}

/** The provider request of one round (a repair asks for one option). */
function providerRequestOf(
  draft: RenderedRequest,
  messages: ChatMessage[],
  config: RequestConfig,
  repairs: number,
  signal: AbortSignal | undefined,
): ProviderRequest {
  const request: ProviderRequest = {
    messages,
    schema: draft.schema,
    schemaName: config.schemaName,
    n: repairs === 0 ? config.n : undefined,
    model: config.model,
    temperature: config.temperature,
    signal,
  };
  if (draft.cacheBreakpoints !== undefined) request.cacheBreakpoints = draft.cacheBreakpoints;
  return request;
}

/** A reply's options checked: the valid ones (in order, with their indexes) and the first one. */
interface CheckedOptions {
  valid: unknown[];
  validIndexes: number[];
  first: CheckedOption | undefined;
}

/** Checks every option of a reply (a loop, not map + filter: one array shape however many options). */
function checkOptions(validator: JsonValidator, options: readonly unknown[]): CheckedOptions {
  const valid: unknown[] = [];
  const validIndexes: number[] = [];
  let first: CheckedOption | undefined;
  for (let index = 0; index < options.length; index++) {
    const checked = check(validator, options[index]);
    if (index === 0) first = checked;
    if (checked.issues.length === 0) {
      valid.push(checked.value);
      validIndexes.push(index);
    }
  }
  return { valid, validIndexes, first };
}

/** The result of a round with valid options; the reasoning of each valid option when any came. */
function resultOf(
  checked: CheckedOptions,
  reasoning: ReasoningPart[][] | undefined,
  usage: Usage,
  messages: ChatMessage[],
  repairs: number,
): RequestResult {
  const result: RequestResult = {
    solution: checked.valid[0],
    options: checked.valid,
    usage,
    messages,
    repairs,
  };
  if (
    reasoning !== undefined &&
    reasoning.some((parts) => parts !== undefined && parts.length > 0)
  ) {
    result.reasoning = checked.validIndexes.map((index) => reasoning[index] ?? []);
  }
  return result;
}

/**
 * The conversation of the next round: the invalid reply and what is wrong with it (R-REQ-3); throws
 * `InvalidSolutionError` once the repairs are spent or `canRepair` says no.
 */
function repairedConversation(
  conversation: ChatMessage[],
  first: CheckedOption | undefined,
  repairs: number,
  config: RequestConfig,
  options: RequestOptions,
): ChatMessage[] {
  const schemaName = config.schemaName ?? 'solution';
  const worst: CheckedOption = first ?? {
    value: undefined,
    rawText: '',
    issues: [{ path: '', message: 'the provider returned no options' }],
  };
  const maxRepairs = Math.max(0, options.maxRepairs ?? 2);
  if (repairs >= maxRepairs || options.canRepair?.() === false) {
    throw new InvalidSolutionError({
      rawText: worst.rawText,
      issues: worst.issues,
      schemaName,
      attempts: repairs + 1,
    });
  }
  return [
    ...conversation,
    { role: 'assistant', content: worst.rawText },
    repairPrompt(worst.issues, schemaName),
  ];
}

/** Runs one Request and returns only its solution; see {@link runRequest}. */
export function request(input: RequestInput, options: RequestOptions): Promise<unknown> {
  return runRequest(input, options).then(solutionOf);
}

function solutionOf(result: RequestResult): unknown {
  return result.solution;
}

/**
 * Checks one option: its text parsed, its depth (MAX_JSON_DEPTH, iteratively, before the validator
 * or anything else walks it recursively), then its schema.
 */
function check(validator: JsonValidator, option: unknown): CheckedOption {
  if (UnparsedOption.isInstance(option)) {
    const issue =
      option.jsonPath === undefined
        ? { path: '', message: `is not valid JSON (${option.reason})` }
        : { path: option.jsonPath, message: option.reason };
    return { value: option, rawText: option.rawText, issues: [issue] };
  }
  const tooDeep = jsonDepthIssue(option);
  if (tooDeep !== undefined) {
    return { value: option, rawText: replyTextOf(option), issues: [tooDeep] };
  }
  const issues = validator(option);
  // The text is needed only to show the model (and the error) an invalid option.
  return {
    value: option,
    rawText: issues.length === 0 ? '' : (JSON.stringify(option) ?? 'undefined'),
    issues,
  };
}

/** The JSON text of a too deep option, for the repair conversation; a placeholder when even that overflows. */
function replyTextOf(option: unknown): string {
  try {
    return JSON.stringify(option) ?? 'undefined';
  } catch {
    return `(a JSON value nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep, too deep to show)`;
  }
}
