import { isPlainObject } from '../internal/is-plain-object';
import { propertyKey, quote } from './naming';

/** Lines longer than this are broken over several lines when rendering a literal. */
const MAX_INLINE_WIDTH = 80;

/**
 * Renders a JSON value as a TypeScript expression (single quotes, bare keys where possible, two-space
 * indentation, trailing commas). Key order is kept so the same Idea always gives the same bytes.
 */
export function renderLiteral(value: unknown, indent = ''): string {
  const inline = renderInline(value);
  if (inline !== undefined && indent.length + inline.length <= MAX_INLINE_WIDTH) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => `${inner}${renderLiteral(item, inner)},`);
    return `[\n${items.join('\n')}\n${indent}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(
      ([key, item]) => `${inner}${propertyKey(key)}: ${renderLiteral(item, inner)},`,
    );
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return renderScalar(value);
}

function renderInline(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    const items = value.map(renderInline);
    if (items.some((item) => item === undefined)) return undefined;
    return `[${items.join(', ')}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const parts: string[] = [];
    for (const [key, item] of entries) {
      const rendered = renderInline(item);
      if (rendered === undefined) return undefined;
      parts.push(`${propertyKey(key)}: ${rendered}`);
    }
    const text = `{ ${parts.join(', ')} }`;
    return text.length <= MAX_INLINE_WIDTH ? text : undefined;
  }
  return renderScalar(value);
}

function renderScalar(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  return 'null';
}
