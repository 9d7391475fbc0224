import type { JSONSchema } from './json-schema';
import type { OutputMethod } from './output-method';

/**
 * One concrete use of a Tool, as the LLM (or code) produced it: `_tool` names the Tool, plain keys are
 * its params, `_`-prefixed keys are meta-fields (DESIGN.md §2).
 */
export interface Call {
  /** Name of the Tool this Call uses. */
  _tool: string;
  /** Why the LLM chose this Call; filled first so the reasoning precedes the params. */
  _reasoningForCall?: string;
  /** Inline latent output, filled by the LLM in the same generation (R-CALL-2). */
  _output?: unknown;
  /** Where in the State the output is written (R-OUT-1). */
  _outputPath?: string;
  /** How the output is written there (R-OUT-3), when the Tool lets the LLM choose; `set` by default. */
  _outputMethod?: OutputMethod;
  /** Message kinds the LLM chose to import, when the Tool leaves it to the LLM (R-IMP-1). */
  _imports?: string[];
  /** The same as `_imports`, in the newer revision's name: when the Tool offers `_scopes` (R-SCOPE-1). */
  _scopes?: string[];
  /** The instance this Call works on (R-INST-1). */
  _instance?: string;
  /** Params, plus any further meta-fields. */
  [param: string]: unknown;
}

/** The error part of a Call's outcome, as the LLM sees it in a `result` message. */
export interface CallError {
  /** Stable error code (the `code` of the IdeactError that caused it). */
  code: string;
  /** Human- and LLM-readable explanation, naming what is at fault. */
  message: string;
}

/** A Call's outcome: an output on success, an error on failure. */
export interface CallOutcome {
  output?: unknown;
  error?: CallError;
}

/** The JSON Schema of a single Call, as offered inside a Vessel. */
export type CallSchema = JSONSchema;
