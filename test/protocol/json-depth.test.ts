import { MAX_JSON_DEPTH, findJsonDepthViolation } from 'ideact';

/** Issue 14 item 13: a documented depth limit, checked without recursion. */
function nested(levels: number): unknown {
  return JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as unknown;
}

describe('findJsonDepthViolation', () => {
  it('accepts data up to MAX_JSON_DEPTH levels and points at the first level past it', () => {
    expect(MAX_JSON_DEPTH).toBe(256);
    expect(findJsonDepthViolation(nested(MAX_JSON_DEPTH))).toBeUndefined();
    const violation = findJsonDepthViolation(nested(MAX_JSON_DEPTH + 1));
    expect(violation?.maxDepth).toBe(MAX_JSON_DEPTH);
    expect(violation?.jsonPath).toBe(`/a/a/a/a/a/a/…(${MAX_JSON_DEPTH - 9} more)…/a/a/a`);
    expect(findJsonDepthViolation({ list: [[['x']]] }, 3)?.jsonPath).toBe('/list/0/0');
    expect(findJsonDepthViolation('text')).toBeUndefined();
  });

  it('walks 100,000 levels without a stack overflow', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(findJsonDepthViolation(deep)?.maxDepth).toBe(MAX_JSON_DEPTH);
  });

  it('does not follow cycles (they are not JSON)', () => {
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(findJsonDepthViolation(cyclic)).toBeUndefined();
  });
});
