import { InvalidIdeaError } from '../errors/invalid-idea.error';
import { escapePointerSegment } from './json-pointer';
import type { JSONSchema } from './json-schema';
import type { DelegateField, ProtocolVocabulary, ScopesField } from './protocol-vocabulary';
import { isSchemaObject, walkSchema } from './schema-walk';

/** Where a Tool schema sits, for messages: the file (or a label) and the JSON Pointer of the Tool. */
export interface ToolLocation {
  /** A file path, a URL or a label such as `tools[1] (ToolSchema)`. */
  source: string;
  /** JSON Pointer of the Tool schema inside `source` (`''` = the Tool is the whole value). */
  jsonPath: string;
}

type Properties = Record<string, JSONSchema | undefined>;

function propertiesOf(tool: JSONSchema): Properties {
  return isSchemaObject(tool.properties) ? (tool.properties as Properties) : {};
}

/**
 * The delegate field a Tool schema uses (R-DEL-1): `_delegate` when only it is written, else
 * `_module` (written or not). Both may be written when they name the same delegate.
 */
export function delegateFieldOf(tool: JSONSchema): DelegateField {
  const properties = propertiesOf(tool);
  return properties._module === undefined && properties._delegate !== undefined
    ? '_delegate'
    : '_module';
}

/** The scopes field a Tool schema uses (R-SCOPE-1): `_scopes` when only it is written, else `_imports`. */
export function scopesFieldOf(tool: JSONSchema): ScopesField {
  const properties = propertiesOf(tool);
  return properties._imports === undefined && properties._scopes !== undefined
    ? '_scopes'
    : '_imports';
}

/** The vocabulary a Tool schema's meta-fields are written in: `acts` when it uses `_delegate` or `_scopes`. */
export function toolVocabulary(tool: JSONSchema): ProtocolVocabulary {
  return delegateFieldOf(tool) === '_delegate' || scopesFieldOf(tool) === '_scopes'
    ? 'acts'
    : 'seeds';
}

/**
 * R-DEL-2 / R-SCOPE-2: a Tool may write both names of one field (`_module` and `_delegate`,
 * `_imports` and `_scopes`) only when they say the same thing; otherwise `InvalidIdeaError` naming the
 * source, the JSON path of the newer field and the Tool.
 */
export function checkToolMetaNames(tool: JSONSchema, location: ToolLocation): void {
  const [first] = toolMetaNameProblems(tool, location);
  if (first !== undefined) throw first;
}

/**
 * Every R-DEL-2 / R-SCOPE-2 problem of one Tool schema (see {@link checkToolMetaNames}), one per pair
 * of names that differ, so `ideact validate` can list them all.
 */
export function toolMetaNameProblems(tool: JSONSchema, location: ToolLocation): InvalidIdeaError[] {
  const properties = propertiesOf(tool);
  const name = toolLabel(properties);
  const pairs: Array<[string, string, (schema: JSONSchema) => unknown]> = [
    ['_module', '_delegate', (schema) => schema.const],
    ['_imports', '_scopes', scopesValue],
  ];
  const problems: InvalidIdeaError[] = [];
  for (const [seeds, acts, valueOf] of pairs) {
    const older = properties[seeds];
    const newer = properties[acts];
    if (older === undefined || newer === undefined) continue;
    const olderValue = isSchemaObject(older) ? valueOf(older) : older;
    const newerValue = isSchemaObject(newer) ? valueOf(newer) : newer;
    if (sameJson(olderValue, newerValue)) continue;
    problems.push(
      new InvalidIdeaError({
        source: location.source,
        jsonPath: `${location.jsonPath}/properties/${escapePointerSegment(acts)}`,
        reason:
          `tool ${name} writes both "${seeds}" (${shortJson(older)}) and "${acts}" (${shortJson(newer)}), ` +
          `which differ; they are two names of one field (the seeds' and the newer revision's): keep one`,
      }),
    );
  }
  return problems;
}

/**
 * Checks every Tool schema (an object whose `properties._tool` has a string const) inside `schema`
 * with {@link checkToolMetaNames}; `jsonPath` is where `schema` sits in `source`.
 */
export function checkSchemaToolNames(schema: JSONSchema, location: ToolLocation): void {
  const [first] = schemaToolNameProblems(schema, location);
  if (first !== undefined) throw first;
}

/** Every {@link toolMetaNameProblems} of every Tool schema inside `schema`, in document order. */
export function schemaToolNameProblems(
  schema: JSONSchema,
  location: ToolLocation,
): InvalidIdeaError[] {
  return toolSchemasIn(schema).flatMap((found) =>
    toolMetaNameProblems(found.tool, {
      source: location.source,
      jsonPath: location.jsonPath + found.jsonPath,
    }),
  );
}

/** Every Tool schema inside `schema` (a Vessel's `calls` items, nested ones), with its JSON Pointer. */
export function toolSchemasIn(schema: JSONSchema): Array<{ tool: JSONSchema; jsonPath: string }> {
  const found: Array<{ tool: JSONSchema; jsonPath: string }> = [];
  walkSchema(schema, (node, pointer) => {
    if (typeof node === 'boolean') return;
    const tool = propertiesOf(node)._tool;
    if (isSchemaObject(tool) && typeof tool.const === 'string') {
      found.push({ tool: node, jsonPath: pointer });
    }
  });
  return found;
}

/**
 * The vocabulary a schema's Tools are written in (codegen emits the matching decorator): `acts`
 * when any Tool uses `_delegate` or `_scopes` and none uses `_module` or `_imports`, else `seeds`.
 */
export function schemaVocabulary(schema: JSONSchema): ProtocolVocabulary {
  let acts = false;
  let seeds = false;
  for (const { tool } of toolSchemasIn(schema)) {
    const properties = propertiesOf(tool);
    if (properties._delegate !== undefined || properties._scopes !== undefined) acts = true;
    if (properties._module !== undefined || properties._imports !== undefined) seeds = true;
  }
  return acts && !seeds ? 'acts' : 'seeds';
}

function scopesValue(schema: JSONSchema): unknown {
  if (Array.isArray(schema.const)) return { mode: 'static', kinds: schema.const };
  const items = Array.isArray(schema.items) ? undefined : schema.items;
  return { mode: 'dynamic', kinds: items?.enum ?? [] };
}

function toolLabel(properties: Properties): string {
  const name = properties._tool?.const;
  return typeof name === 'string' ? `"${name}"` : '(unnamed)';
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
