import type { JSONSchema } from './json-schema';
import type { DelegateField, ScopesField } from './protocol-vocabulary';
import type { OutputMethod } from './output-method';

/**
 * How a Tool's `_imports` / `_scopes` is set (R-IMP-1, R-SCOPE-1): not at all, fixed by the designer,
 * or chosen by the LLM; `field` is the name the Tool wrote (the LLM writes the same one in its Call).
 */
export type ToolImports =
  | { mode: 'none' }
  | { mode: 'static'; kinds: string[]; field: ScopesField }
  | { mode: 'dynamic'; kinds: string[]; field: ScopesField };

/** How a Tool's `_outputPath` is set (R-OUT-1): not at all, fixed, or the LLM's choice (of `paths`). */
export type ToolOutputPath =
  { mode: 'none' } | { mode: 'fixed'; path: string } | { mode: 'choice'; paths?: string[] };

/**
 * How a Tool's `_outputMethod` is set (R-OUT-4): not at all (`set`), fixed, or the LLM's choice of
 * `methods` (`default` for a Call that writes none; else `set`).
 */
export type ToolOutputMethod =
  | { mode: 'none' }
  | { mode: 'fixed'; method: OutputMethod }
  | { mode: 'choice'; methods: OutputMethod[]; default?: OutputMethod };

/** A Tool schema read into plain fields: name, params, and what each meta-field says. */
export interface ToolInfo {
  /** The `_tool` const. */
  name: string;
  /** The Tool's description, shown to the LLM. */
  description?: string;
  /** Object schema of the params only (no `_` meta-fields). */
  params: JSONSchema;
  /** The latent output schema (`_output`). */
  output?: JSONSchema;
  /** The explicit `_activity` const as written (`''` = latent); absent when not set. */
  activity?: string;
  /** The `_module` / `_delegate` const: an Idea file path, a URL or `'anonymous'` (R-DEL-1). */
  module?: string;
  /** Which name the Tool wrote `module` under (`_module` or `_delegate`); set with `module`. */
  moduleField?: DelegateField;
  /** When a module is loaded: at execution time (default) or upfront (R-MOD-3/4). */
  resolution: 'execution' | 'upfront';
  /** The `_imports` / `_scopes` setting. */
  imports: ToolImports;
  /** The `_outputPath` setting. */
  outputPath: ToolOutputPath;
  /** The `_outputMethod` setting. */
  outputMethod: ToolOutputMethod;
}
