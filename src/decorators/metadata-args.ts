import type { JSONSchema } from '../protocol/json-schema';
import type { ProtocolVocabulary } from '../protocol/protocol-vocabulary';
import type { OutputMethod } from '../protocol/output-method';
import type { ClassConstructor } from './class-types';

/** What `@Tool()` recorded. */
export interface ToolMetadataArgs {
  target: ClassConstructor;
  /** Explicit `_tool` name; the camelCased class name when absent. */
  name?: string;
  /** The tool's description, shown to the LLM. */
  description?: string;
  /** The tool's Calls wait for a person's decision (`needsApproval: true` in its schema). */
  needsApproval?: boolean;
}

/** What `@Output()` recorded: the latent output, as a class (converted later) or a JSON Schema. */
export interface OutputMetadataArgs {
  target: ClassConstructor;
  output: { kind: 'class'; type: ClassConstructor } | { kind: 'schema'; schema: JSONSchema };
}

/** What `@Activity()` on a tool class recorded (`_activity`). */
export interface ToolActivityMetadataArgs {
  target: ClassConstructor;
  /** The Activity name; the tool's name when absent; `''` = latent. */
  name?: string;
}

/** What `@Activity()` on a service method recorded: that method implements the named Activity. */
export interface ServiceActivityMetadataArgs {
  target: ClassConstructor;
  /** The method implementing the Activity. */
  methodName: string;
  /** The Activity name (the method name unless given). */
  name: string;
}

/** What `@Module()` / `@Delegate()` recorded (`_module` / `_delegate`, `_resolution`). */
export interface ModuleMetadataArgs {
  target: ClassConstructor;
  /** Which name was used: `@Module` (seeds, writes `_module`) or `@Delegate` (acts, writes `_delegate`). */
  vocabulary: ProtocolVocabulary;
  /** An Idea file path, a URL, or `'anonymous'`. */
  reference: string;
  /** When the module is resolved (R-MOD-3/R-MOD-4). */
  resolution: 'execution' | 'upfront';
}

/**
 * What `@Imports()` / `@Scopes()` recorded (`_imports` / `_scopes`): fixed by the designer (static)
 * or chosen by the LLM (dynamic).
 */
export interface ImportsMetadataArgs {
  target: ClassConstructor;
  /** Which name was used: `@Imports` (seeds, writes `_imports`) or `@Scopes` (acts, writes `_scopes`). */
  vocabulary: ProtocolVocabulary;
  mode: 'static' | 'dynamic';
  kinds: string[];
}

/** What `@OutputPath()` recorded (`_outputPath`). */
export interface OutputPathMetadataArgs {
  target: ClassConstructor;
  /** `fixed`: one path; `choice`: the LLM picks one of `paths`, or any path when `paths` is absent. */
  mode: 'fixed' | 'choice';
  path?: string;
  paths?: string[];
  /** `_outputMethod` (R-OUT-4): fixed, or the LLM's choice of `methods`; absent = `set`. */
  method?:
    | { mode: 'fixed'; method: OutputMethod }
    | { mode: 'choice'; methods: OutputMethod[]; default?: OutputMethod };
}
