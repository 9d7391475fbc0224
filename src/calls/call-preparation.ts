import { randomUUID } from 'node:crypto';
import { InvalidParamsError } from '../errors/invalid-params.error';
import { OutputPathNotAllowedError } from '../errors/output-path-not-allowed.error';
import { ParamsValidationError } from '../errors/params-validation.error';
import { UnknownToolError } from '../errors/unknown-tool.error';
import type { Call } from '../protocol/call';
import { compileOwnedValidator, type ValidationIssue } from '../protocol/json-validation';
import { unescapePointerSegment } from '../protocol/json-pointer';
import type { Message } from '../protocol/message';
import type { OutputMethod } from '../protocol/output-method';
import { chooseOutputMethod } from '../protocol/read-output-method';
import { readTool, resolveActivity } from '../protocol/read-tool';
import { resolveReferences } from '../protocol/resolve-references';
import { importedKinds, selectImports } from '../protocol/select-imports';
import type { ToolInfo } from '../protocol/tool-info';
import type { CallEnvironment, PreparedCall, ToolEntry } from './call-types';

/**
 * The first steps of the call pipeline (DESIGN §8): resolve the Tool, read where its output goes,
 * resolve `†` references, select imports, and validate the params — the same for every Tool kind
 * (explicit, latent, module) and every entry point.
 */

/** Where and how a Call's outcome is written, and what the write records (R-OUT-5). @internal */
export interface WriteSetting {
  /** The output path; undefined = the outcome is not written. */
  path?: string;
  method?: OutputMethod;
  callId?: string;
  toolName?: string;
  /** The context the Call ran with (push / concat are checked against it, R-OUT-7). */
  context?: readonly Message[];
}

/** The id of a Call run outside the agent loop (which passes `<vessel node id>:<index>`). @internal */
export function generatedCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/**
 * Steps 1–2: looks up the Call's Tool (`UnknownToolError` naming the known ones), chooses its output
 * path and method (into `write`), resolves its `†` references against `context` (R-VAR-1) and selects
 * its imports (R-IMP-1). Throws the typed error of the first step that fails. @internal
 */
export function prepareCall(
  env: CallEnvironment,
  call: Call,
  context: readonly Message[],
  instance: string | undefined,
  identity: PreparedCall['identity'],
  write: WriteSetting,
): PreparedCall {
  const entry = toolEntry(env, call._tool);
  const { tool, info, activity } = entry;
  write.toolName = info.name;
  write.path = chooseOutputPath(info, call);
  if (write.path !== undefined) write.method = chooseOutputMethod(info, call);
  const raw: Record<string, unknown> = {};
  // Its keys, not Object.entries' pairs (once per Call: the fastest walk in every V8 tier).
  const keys = Object.keys(call);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (!key.startsWith('_')) raw[key] = (call as Record<string, unknown>)[key];
  }
  const params = resolveReferences(raw, context, instance);
  const kinds = importedKinds(info, call);
  const prepared: PreparedCall = { call, tool, info, params, activity, identity, entry };
  if (instance !== undefined) prepared.instance = instance;
  if (kinds !== undefined) prepared.imports = selectImports(context, kinds, instance);
  return prepared;
}

/**
 * Step 3: validates the params (references resolved) against the Tool's params schema, for every
 * kind of Tool — explicit, latent and module alike — then runs the Tool's params transformer (a
 * `@Tool` class's class-validator checks and conversion). Failures: `ParamsValidationError` for a
 * Tool with a transformer (a class), else `InvalidParamsError`; each names every JSON path at fault.
 * Returns the params an Activity receives (the transformer's, or the resolved ones; a promise only
 * when there is a transformer). Throws synchronously when the params are invalid. @internal
 */
export function validateParams(
  env: CallEnvironment,
  prepared: PreparedCall,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const { info } = prepared;
  const transformer = env.paramsTransformers[info.name];
  const issues = prepared.entry.validateParams(prepared.params);
  if (issues.length > 0) {
    // A class tool reports every params problem one way, whether its schema or its validators saw it.
    if (transformer !== undefined) {
      throw new ParamsValidationError({ toolName: info.name, issues: issues.map(toParamsIssue) });
    }
    throw new InvalidParamsError({ toolName: info.name, issues });
  }
  // Synchronous unless the Tool has a transformer (a class Tool): no promise per Call (issue 28).
  return transformer === undefined ? prepared.params : transformer(prepared.params);
}

/**
 * The Call's Tool as the pipeline reads it, made on its first Call in this environment and kept
 * (reading a Tool, resolving its Activity and compiling its params schema is not per-Call work).
 * `UnknownToolError` names the known Tools. @internal
 */
export function toolEntry(env: CallEnvironment, name: string): ToolEntry {
  const kept = env.entries.get(name);
  if (kept !== undefined) return kept;
  const tool = env.tools.get(name);
  if (tool === undefined) {
    throw new UnknownToolError({ toolName: String(name), knownTools: [...env.tools.keys()] });
  }
  const info = readTool(tool);
  const entry: ToolEntry = {
    tool,
    info,
    activity: resolveActivity(tool, new Set(Object.keys(env.activities))),
    // `readTool` built this params schema for the entry, which keeps it: no copies needed.
    validateParams: compileOwnedValidator(info.params),
  };
  env.entries.set(name, entry);
  return entry;
}

/** The output path a Call writes to: the Tool's fixed path, or the LLM's (allowed) choice. */
function chooseOutputPath(info: ToolInfo, call: Call): string | undefined {
  const setting = info.outputPath;
  if (setting.mode === 'fixed') return setting.path;
  if (setting.mode === 'none' || typeof call._outputPath !== 'string' || call._outputPath === '') {
    return undefined;
  }
  if (setting.paths !== undefined && !setting.paths.includes(call._outputPath)) {
    throw new OutputPathNotAllowedError({
      toolName: info.name,
      path: call._outputPath,
      allowed: setting.paths,
    });
  }
  return call._outputPath;
}

/** A schema issue as a class tool's issue: the JSON Pointer becomes a dotted property path. */
function toParamsIssue(issue: ValidationIssue): { path: string; messages: string[] } {
  const path = issue.path.split('/').slice(1).map(unescapePointerSegment).join('.');
  return { path: path === '' ? '(params)' : path, messages: [issue.message] };
}
