/**
 * `ideact/testing` — helpers for users' own tests: the scripted provider that replays solutions and
 * records every request it received.
 */
export { ScriptedProvider, ScriptedOptions } from '../llm/scripted/scripted-provider';
export type {
  ScriptEntry,
  ScriptFunction,
  ScriptedProviderOptions,
  ScriptedStreamOptions,
} from '../llm/scripted/scripted-provider';
export { UnparsedOption } from '../llm/unparsed-option';
export { ScriptExhaustedError } from '../errors/script-exhausted.error';
export { ScriptIncompleteError } from '../errors/script-incomplete.error';
export { ScriptedSolutionError } from '../errors/scripted-solution.error';
