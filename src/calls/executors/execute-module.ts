import { MissingOutputSchemaError } from '../../errors/missing-output-schema.error';
import { ModuleCycleError } from '../../errors/module-cycle.error';
import { ModuleDepthError } from '../../errors/module-depth.error';
import type { Idea } from '../../protocol/idea';
import { CALLER_INPUT_KIND } from '../../protocol/caller-input';
import { dataView, isInputMessage } from '../../protocol/data-view';
import { findIdeaInput } from '../../protocol/invert-idea';
import type { JSONSchema } from '../../protocol/json-schema';
import type { InputMessage, Message } from '../../protocol/message';
import type { CallEnvironment, PreparedCall } from '../call-types';
import { moduleBrief } from './module-brief';
import { ANONYMOUS_MODULE, type LoadedModule } from '../module-loader';
import { displayModuleId } from '../module-path';
import type { ModuleRunInput } from '../module-runner';

/**
 * Module scope / delegated call, latent method (R-MOD-1..3, R-DEL-1): loads the module (`_module`
 * or `_delegate`, execution-time resolution), checks depth and cycles, assembles the clean room and
 * hands it to the ModuleRunner. The clean room is the Tool's brief (its description and the module's,
 * see `moduleBrief`) + the module file's context (its own `input` messages removed: the Call's params
 * replace them) + ONLY the imported (scoped) parent messages, appended after the delegate's own
 * context (R-SCOPE-3; an imported `input` as kind `callerInput`) + one `input` message with the
 * params and the module's input schema, last. The pipeline validated the params against the Tool's
 * schema; a module Idea whose input schema differs still gets them (the LLM bridges it, R-MOD-3).
 * @internal
 */
export async function runModule(
  env: CallEnvironment,
  prepared: PreparedCall,
  signal: AbortSignal,
  reports: Pick<ModuleRunInput, 'run' | 'onNestedRun' | 'settings'> = {},
): Promise<unknown> {
  const { info } = prepared;
  const reference = info.module ?? ANONYMOUS_MODULE;
  const depth = env.depth + 1;
  const shownChain = env.chain.map((id) => displayModuleId(id, env.loader.root));
  if (depth > env.maxModuleDepth) {
    throw new ModuleDepthError({
      depth,
      maxDepth: env.maxModuleDepth,
      chain: [...shownChain, reference],
    });
  }

  let module: LoadedModule;
  let inputSchema: JSONSchema | undefined;
  if (reference === ANONYMOUS_MODULE) {
    if (info.output === undefined) throw new MissingOutputSchemaError({ toolName: info.name });
    const idea: Idea = { name: info.name, context: [], schema: info.output };
    if (info.description !== undefined) idea.description = info.description;
    module = { id: ANONYMOUS_MODULE, reference, idea };
    inputSchema = info.params;
  } else {
    module = await env.loader.load(reference);
    if (env.chain.includes(module.id)) {
      throw new ModuleCycleError({
        chain: [...shownChain, displayModuleId(module.id, env.loader.root)],
      });
    }
    inputSchema = findIdeaInput(module.idea)?.schema;
  }

  const input: InputMessage = { type: 'input', input: prepared.params };
  if (inputSchema !== undefined) input.schema = inputSchema;
  const brief = moduleBrief(info, module.idea, module.idea.schema);
  const context: Message[] = [
    ...(brief === undefined ? [] : [brief]),
    ...module.idea.context.filter((message) => !isInputMessage(message)),
    ...importedForModule(prepared.imports ?? []),
    input,
  ];
  return env.runner.run({
    module,
    context,
    schema: module.idea.schema,
    call: prepared.call,
    depth,
    chain: [...env.chain, module.id],
    signal,
    run: reports.run,
    onNestedRun: reports.onNestedRun,
    settings: reports.settings ?? {},
  });
}

/**
 * The imported parent messages as the clean room shows them (R-SCOPE-3): the caller's `input` is not
 * the module's input — the Call's params are (R-MOD-1) — so it becomes data of kind `callerInput`
 * instead of merging with the params into one `¶input` block. Other kinds pass unchanged.
 */
function importedForModule(imports: readonly Message[]): Message[] {
  return imports.map((message) => {
    const view = dataView(message);
    if (view?.kind !== 'input') return message;
    const renamed: Message = { type: 'data', kind: CALLER_INPUT_KIND, data: view.data };
    if (view.schema !== undefined) renamed.schema = view.schema;
    renamed.description = view.description ?? CALLER_INPUT_DESCRIPTION;
    if (view.instance !== undefined) renamed._instance = view.instance;
    return renamed;
  });
}

const CALLER_INPUT_DESCRIPTION =
  "The caller's input, imported into this module; your own input is the `input` block.";
