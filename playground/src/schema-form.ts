/**
 * JSON Schema → form (issue 20): prepares a Tool's input schema for @rjsf/core and derives the
 * uiSchema (widgets, read-only consts, textareas, option labels) and the initial form data (defaults,
 * consts). Pure: no React, no DOM, so the mapping is unit-tested in test/dev/schema-form.test.ts.
 */

/** A JSON Schema node (objects and the `true`/`false` schemas). */
export type SchemaNode = boolean | SchemaObject;

/** A JSON Schema object; keywords are read defensively since Ideas are user-written JSON. */
export type SchemaObject = { [keyword: string]: unknown };

/** rjsf's uiSchema, as plain JSON (`ui:widget`, `ui:options`… and one entry per property). */
export type UiSchemaJson = { [key: string]: unknown };

/** Everything the Tool page needs to render its form. */
export interface FormPlan {
  /** The schema rjsf renders and validates with (the runtime's schema without `$id`/`$schema`). */
  schema: SchemaObject;
  uiSchema: UiSchemaJson;
  /** The initial params: defaults and consts, nested objects included. */
  formData: Record<string, unknown>;
}

/** Strings longer than this many characters (by `maxLength`) get a textarea. */
const TEXTAREA_FROM_LENGTH = 200;
/** `$ref` chains longer than this are treated as recursive and not followed further. */
const MAX_REF_DEPTH = 32;

/** The form for a Tool's input schema (the one GET /api/tools/:name returns). */
export function planForm(inputSchema: unknown): FormPlan {
  const schema = prepareFormSchema(inputSchema);
  return {
    schema,
    uiSchema: buildUiSchema(schema, schema),
    formData: asObject(defaultFormData(schema, schema)) ?? {},
  };
}

/**
 * The schema rjsf gets: `$id`/`$schema` removed from schema positions, as the runtime's validator
 * does (validateJson), so both validate against the same rules; a non-object schema becomes `{}`.
 */
export function prepareFormSchema(inputSchema: unknown): SchemaObject {
  const prepared = stripIds(isSchemaObject(inputSchema) ? inputSchema : {});
  return isSchemaObject(prepared) ? prepared : {};
}

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const SINGLE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];

function stripIds(node: SchemaNode): SchemaNode {
  if (!isSchemaObject(node)) return node;
  const result: SchemaObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === '$id' || keyword === '$schema') continue;
    if (SINGLE.includes(keyword) && isSchema(value)) result[keyword] = stripIds(value);
    else if (SINGLE.includes(keyword) && Array.isArray(value))
      result[keyword] = value.map(stripChild);
    else if (LISTS.includes(keyword) && Array.isArray(value))
      result[keyword] = value.map(stripChild);
    else if (MAPS.includes(keyword) && isSchemaObject(value)) {
      result[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, stripChild(child)]),
      );
    } else result[keyword] = value;
  }
  return result;
}

function stripChild(child: unknown): unknown {
  return isSchema(child) ? stripIds(child) : child;
}

/**
 * Follows a local `$ref` (`#/$defs/Name`, `#/definitions/Name`, any JSON pointer into the root); the
 * referring schema's own keywords (a `description`, a `default`) win over the target's.
 */
export function resolveLocalRef(node: SchemaObject, root: SchemaObject, depth = 0): SchemaObject {
  const reference = node.$ref;
  if (typeof reference !== 'string' || !reference.startsWith('#') || depth > MAX_REF_DEPTH)
    return node;
  const target = readPointer(root, decodeURIComponent(reference.slice(1)));
  if (!isSchemaObject(target)) return node;
  const { $ref: _reference, ...siblings } = node;
  return { ...resolveLocalRef(target, root, depth + 1), ...siblings };
}

function readPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let current: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** True when the schema accepts exactly one value (`const`, or an `enum` of one). */
export function isConstantSchema(node: SchemaNode): boolean {
  if (!isSchemaObject(node)) return false;
  return 'const' in node || (Array.isArray(node.enum) && node.enum.length === 1);
}

/** The alternatives of an `anyOf`/`oneOf`, if the node has them. */
function alternativesOf(node: SchemaObject): SchemaNode[] | undefined {
  const options = node.anyOf ?? node.oneOf;
  return Array.isArray(options) ? options.filter(isSchema) : undefined;
}

/**
 * The uiSchema for `node`: enums and anyOf-of-consts as selects, consts read-only, long strings as
 * textareas, unique enum arrays as checkboxes, and one entry per property / array item / anyOf option.
 */
export function buildUiSchema(node: SchemaNode, root: SchemaObject, depth = 0): UiSchemaJson {
  if (!isSchemaObject(node) || depth > MAX_REF_DEPTH) return {};
  const schema = resolveLocalRef(node, root);
  const ui: UiSchemaJson = {};

  if (isConstantSchema(schema) && !Array.isArray(schema.enum)) {
    ui['ui:readonly'] = true;
    return ui;
  }
  if (Array.isArray(schema.enum)) {
    ui['ui:widget'] = 'select';
    return ui;
  }
  const alternatives = alternativesOf(schema);
  if (alternatives !== undefined && alternatives.length > 0) {
    if (alternatives.every((option) => isConstantSchema(resolveOption(option, root)))) {
      ui['ui:widget'] = 'select';
    } else {
      const key = Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf';
      ui[key] = alternatives.map((option) => buildUiSchema(option, root, depth + 1));
    }
  }

  const types = typesOf(schema);
  if (
    types.includes('string') &&
    typeof schema.maxLength === 'number' &&
    schema.maxLength > TEXTAREA_FROM_LENGTH
  ) {
    ui['ui:widget'] = 'textarea';
  }
  if (types.includes('array') || 'items' in schema) {
    const items = isSchema(schema.items) ? resolveOption(schema.items, root) : undefined;
    if (items !== undefined && Array.isArray(items.enum) && schema.uniqueItems === true) {
      ui['ui:widget'] = 'checkboxes';
    } else if (items !== undefined) {
      ui.items = buildUiSchema(items, root, depth + 1);
    }
  }
  if (isSchemaObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isSchema(property)) continue;
      const child = buildUiSchema(property, root, depth + 1);
      if (Object.keys(child).length > 0) ui[name] = child;
    }
  }
  return ui;
}

function resolveOption(option: SchemaNode, root: SchemaObject): SchemaObject {
  return isSchemaObject(option) ? resolveLocalRef(option, root) : {};
}

function typesOf(schema: SchemaObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type) => typeof type === 'string');
  return [];
}

/**
 * The initial value for `node`: its `default`, else its `const`, else (for objects) the defaults of
 * its properties, nested objects included; `undefined` when nothing is known.
 */
export function defaultFormData(node: SchemaNode, root: SchemaObject, depth = 0): unknown {
  if (!isSchemaObject(node) || depth > MAX_REF_DEPTH) return undefined;
  const schema = resolveLocalRef(node, root);
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (!isSchemaObject(schema.properties)) return undefined;
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isSchema(property)) continue;
    const value = defaultFormData(property, root, depth + 1);
    if (value !== undefined) result[name] = value;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * The server's `INVALID_PARAMS` issues (JSON pointers such as `/address/city`) as rjsf's error schema
 * (`{ address: { city: { __errors: [...] } } }`), so they show inline under their fields.
 */
export function issuesToErrorSchema(
  issues: ReadonlyArray<{ path: string; message: string }>,
): UiSchemaJson {
  const errors: UiSchemaJson = {};
  for (const issue of issues) {
    const tokens = issue.path
      .split('/')
      .slice(1)
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    let target = errors;
    for (const token of tokens) {
      const next = isSchemaObject(target[token]) ? (target[token] as UiSchemaJson) : {};
      target[token] = next;
      target = next;
    }
    const list = Array.isArray(target.__errors) ? (target.__errors as string[]) : [];
    target.__errors = [...list, issue.message];
  }
  return errors;
}

/** An ajv error as rjsf's validator reports it (the parts the message needs). */
export interface FormValidationError {
  name?: string;
  message?: string;
  params?: unknown;
}

/**
 * The message the runtime's validateJson writes for the same ajv error (allowed enum values, the
 * const, the extra property), so the form's inline errors read like the run's own validation errors.
 */
export function runtimeStyleMessage(error: FormValidationError): string {
  const message = error.message ?? 'is invalid';
  const params = isSchemaObject(error.params) ? error.params : {};
  if (error.name === 'enum' && Array.isArray(params.allowedValues)) {
    return `${message}: ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  if (error.name === 'const') return `${message}: ${JSON.stringify(params.allowedValue)}`;
  if (error.name === 'additionalProperties')
    return `${message}: "${String(params.additionalProperty)}"`;
  return message;
}

function isSchema(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isSchemaObject(value);
}

function isSchemaObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isSchemaObject(value) ? value : undefined;
}
