import { InvalidSchemaError } from '../errors/invalid-schema.error';
import { OutputMethodNotAllowedError } from '../errors/output-method-not-allowed.error';
import type { Call } from './call';
import type { JSONSchema } from './json-schema';
import {
  DEFAULT_OUTPUT_METHOD,
  isOutputMethod,
  describeOutputMethods,
  OUTPUT_METHODS,
  type OutputMethod,
} from './output-method';
import type { ToolInfo, ToolOutputMethod } from './tool-info';

/**
 * R-OUT-4: reads a Tool's `_outputMethod` schema: absent (every write is `set`), fixed by the
 * designer (`{ "const": "push" }`, hidden from the model) or left to the model (`{ "enum": [...] }`,
 * or any string schema = all five methods). A `default` in the schema is the method of a Call that
 * writes none (else `set`). Throws `InvalidSchemaError` for a name that is not an output method.
 */
export function readOutputMethod(
  schema: JSONSchema | undefined,
  toolName: string,
): ToolOutputMethod {
  if (schema === undefined) return { mode: 'none' };
  const invalid = (value: unknown, where: string): InvalidSchemaError =>
    new InvalidSchemaError({
      message:
        `Tool "${toolName}" has ${where} ${JSON.stringify(value)} in its _outputMethod, which is not an ` +
        `output method (expected ${OUTPUT_METHODS.join(', ')}).`,
    });
  if (schema.const !== undefined) {
    if (!isOutputMethod(schema.const)) throw invalid(schema.const, 'the const');
    return { mode: 'fixed', method: schema.const };
  }
  let methods: OutputMethod[] = [...OUTPUT_METHODS];
  if (Array.isArray(schema.enum)) {
    const wrong = schema.enum.find((value) => !isOutputMethod(value));
    if (wrong !== undefined) throw invalid(wrong, 'the enum value');
    methods = schema.enum as OutputMethod[];
  }
  const setting: ToolOutputMethod = { mode: 'choice', methods };
  if (schema.default !== undefined) {
    if (!isOutputMethod(schema.default)) throw invalid(schema.default, 'the default');
    setting.default = schema.default;
  }
  return setting;
}

/** The method a Call that writes none gets from its Tool (R-OUT-4). @internal */
export function defaultOutputMethod(setting: ToolOutputMethod): OutputMethod {
  if (setting.mode === 'fixed') return setting.method;
  if (setting.mode === 'choice' && setting.default !== undefined) return setting.default;
  return DEFAULT_OUTPUT_METHOD;
}

/**
 * R-OUT-4: the method a Call's output is written with. Fixed (or no `_outputMethod` in the Tool):
 * the Tool's, whatever the Call says, as for a fixed `_outputPath`. Chosen: the Call's
 * `_outputMethod` (absent or null = the default), which must be one the Tool offers, else
 * `OutputMethodNotAllowedError`.
 */
export function chooseOutputMethod(info: ToolInfo, call: Call): OutputMethod {
  const setting = info.outputMethod;
  if (setting.mode !== 'choice') return defaultOutputMethod(setting);
  const written: unknown = call._outputMethod;
  const method = written === undefined || written === null ? defaultOutputMethod(setting) : written;
  if (!isOutputMethod(method) || !setting.methods.includes(method)) {
    throw new OutputMethodNotAllowedError({
      toolName: info.name,
      method: typeof method === 'string' ? method : (JSON.stringify(method) ?? String(method)),
      allowed: setting.methods,
    });
  }
  return method;
}

/**
 * The `_outputMethod` property a Vessel's call schema shows when the model chooses the method
 * (R-OUT-4): the Tool's schema with its methods as an enum and, when it has none, a description of
 * the methods; `required` when the default is not among the methods. Undefined when it is not shown
 * (fixed, absent, or the Tool writes no output). @internal
 */
export function offeredOutputMethod(
  info: ToolInfo,
  schema: JSONSchema | undefined,
): { schema: JSONSchema; required: boolean } | undefined {
  const setting = info.outputMethod;
  if (setting.mode !== 'choice' || schema === undefined || info.outputPath.mode === 'none') {
    return undefined;
  }
  const offered: JSONSchema = { ...schema };
  if (offered.enum === undefined) offered.enum = [...setting.methods];
  const fallback = defaultOutputMethod(setting);
  if (offered.description === undefined) {
    offered.description = describeOutputMethods(setting.methods, fallback);
  }
  return { schema: offered, required: !setting.methods.includes(fallback) };
}
