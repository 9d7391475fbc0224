import type { JSONSchema, ToolSchema } from 'ideact';

/**
 * The agent every AI SDK family test runs (issue 30, "an agent run with a Vessel of two tools and a
 * final output completes through each"): two Activity tools and an output schema, together using the
 * keywords families treat differently: `pattern`, `minimum`/`maximum`, `maxLength`, a non-string
 * `enum`, a `format` most vendors do not take (`email`), one Gemini does (`date-time`), and an
 * optional property.
 */
export const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: {
    _tool: { const: 'weather' },
    city: { type: 'string', pattern: '^[A-Z][a-z]+$', maxLength: 40 },
    days: { type: 'integer', enum: [1, 3, 7] },
  },
  required: ['_tool', 'city'],
};

export const notifyTool: ToolSchema = {
  type: 'object',
  description: 'Sends a note to someone.',
  properties: {
    _tool: { const: 'notify' },
    email: { type: 'string', format: 'email' },
    at: { type: 'string', format: 'date-time' },
    priority: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['_tool', 'email'],
};

/** The run's output schema. */
export const outputSchema: JSONSchema = {
  type: 'object',
  properties: {
    summary: { type: 'string', maxLength: 200 },
    sunny: { type: 'boolean' },
  },
  required: ['summary', 'sunny'],
  additionalProperties: false,
};

/** What the Activities did, to assert the Calls really ran. */
export interface ActivityLog {
  weather: Array<Record<string, unknown>>;
  notify: Array<Record<string, unknown>>;
}

/** The two Activities, recording their params. */
export function activities(
  log: ActivityLog,
): Record<string, (params: Record<string, unknown>) => unknown> {
  return {
    weather: (params) => {
      log.weather.push(params);
      return { city: params.city, sky: 'sun', celsius: 21 };
    },
    notify: (params) => {
      log.notify.push(params);
      return { sent: true };
    },
  };
}

/** Turn 1: both tools; turn 2: the final output. */
export const turnOne = {
  calls: [
    { _tool: 'weather', city: 'Oslo', days: 3 },
    { _tool: 'notify', email: 'ana@example.com', priority: 0.5 },
  ],
  output: null,
};
export const turnTwo = {
  calls: [],
  output: { summary: 'Sunny in Oslo; Ana notified.', sunny: true },
};

/**
 * Every keyword used at a schema position of `schema` (properties, items, anyOf, allOf, $defs…), with
 * the JSON path of each use: what a vendor's API reference allows is checked against this list.
 */
export function schemaKeywords(
  schema: unknown,
  path = '#',
): Array<{ keyword: string; path: string }> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const found: Array<{ keyword: string; path: string }> = [];
  for (const [keyword, value] of Object.entries(schema as Record<string, unknown>)) {
    found.push({ keyword, path });
    if (['properties', '$defs', 'definitions'].includes(keyword) && isObject(value)) {
      for (const [name, child] of Object.entries(value))
        found.push(...schemaKeywords(child, `${path}/${keyword}/${name}`));
    } else if (['items', 'additionalProperties', 'not'].includes(keyword) && isObject(value)) {
      found.push(...schemaKeywords(value, `${path}/${keyword}`));
    } else if (
      ['anyOf', 'allOf', 'oneOf', 'prefixItems'].includes(keyword) &&
      Array.isArray(value)
    ) {
      value.forEach((child, index) =>
        found.push(...schemaKeywords(child, `${path}/${keyword}/${index}`)),
      );
    }
  }
  return found;
}

/** The descriptions along a schema, joined: where moved constraints must show up. */
export function allDescriptions(schema: unknown): string {
  return (
    JSON.stringify(schema)
      .match(/"description":"(?:[^"\\]|\\.)*"/g)
      ?.join('\n') ?? ''
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
