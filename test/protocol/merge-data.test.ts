import fc from 'fast-check';
import { applyMergePatch, mergeDataMessages, type Message } from 'ideact';

/** Independent RFC 7386 reference implementation (the RFC's pseudo code, written recursively). */
function referenceMergePatch(target: unknown, patch: unknown): unknown {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(patch)) return patch;
  const result = new Map<string, unknown>(isObject(target) ? Object.entries(target) : []);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) result.delete(key);
    else result.set(key, referenceMergePatch(result.get(key), value));
  }
  return Object.fromEntries(result);
}

/** JSON values with few distinct keys, so patches collide often. */
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 3 }),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('json'), { maxKeys: 4 }),
  ),
}));

describe('mergeDataMessages (R-DATA-1)', () => {
  it('merges nested objects, deletes keys patched with null and replaces arrays', () => {
    const merged = mergeDataMessages([
      {
        type: 'data',
        kind: 'user',
        data: { name: 'Ann', address: { city: 'Paris', zip: '1' }, tags: [1, 2] },
      },
      { type: 'data', kind: 'user', data: { address: { city: 'Austin', zip: null }, tags: [3] } },
    ]);
    expect(merged).toEqual([
      { type: 'data', kind: 'user', data: { name: 'Ann', address: { city: 'Austin' }, tags: [3] } },
    ]);
  });

  it('replaces the whole data when a patch is not an object', () => {
    const merged = mergeDataMessages([
      { type: 'data', kind: 'note', data: { a: 1 } },
      { type: 'data', kind: 'note', data: 'plain text' },
      { type: 'data', kind: 'note', data: { b: 2 } },
    ]);
    expect(merged).toEqual([{ type: 'data', kind: 'note', data: { b: 2 } }]);
  });

  it('keeps the merged message at the position of the first; last schema and description win', () => {
    const merged = mergeDataMessages([
      { type: 'text', text: 'before' },
      {
        type: 'data',
        kind: 'user',
        data: { a: 1 },
        schema: { type: 'object' },
        description: 'old',
      },
      { type: 'text', text: 'between' },
      { type: 'data', kind: 'user', data: { b: 2 }, description: 'new' },
      { type: 'data', kind: 'user', data: { c: 3 }, schema: { type: 'object', title: 'User' } },
    ]);
    expect(merged).toEqual([
      { type: 'text', text: 'before' },
      {
        type: 'data',
        kind: 'user',
        data: { a: 1, b: 2, c: 3 },
        schema: { type: 'object', title: 'User' },
        description: 'new',
      },
      { type: 'text', text: 'between' },
    ]);
  });

  it('never merges data messages without a kind', () => {
    const messages: Message[] = [
      { type: 'data', data: { a: 1 } },
      { type: 'data', data: { b: 2 } },
    ];
    expect(mergeDataMessages(messages)).toEqual(messages);
  });

  it('never merges different _instance values, nor an instance with global data (R-INST-1)', () => {
    const merged = mergeDataMessages([
      { type: 'state', state: { n: 0 } },
      { type: 'state', state: { n: 1 }, _instance: 'a' },
      { type: 'state', state: { n: 2 }, _instance: 'b' },
      { type: 'state', state: { m: 1 }, _instance: 'a' },
      { type: 'state', state: { m: 0 } },
    ]);
    expect(merged).toEqual([
      { type: 'state', state: { n: 0, m: 0 } },
      { type: 'state', state: { n: 1, m: 1 }, _instance: 'a' },
      { type: 'state', state: { n: 2 }, _instance: 'b' },
    ]);
  });

  it('merges input/state shorthands with data of kind input/state, keeping the first type', () => {
    expect(
      mergeDataMessages([
        { type: 'state', state: { a: 1 } },
        { type: 'data', kind: 'state', data: { b: 2 }, description: 'the run state' },
        { type: 'data', kind: 'input', data: { x: 1 } },
        { type: 'input', input: { y: 2 }, schema: { type: 'object' } },
      ]),
    ).toEqual([
      { type: 'state', state: { a: 1, b: 2 }, description: 'the run state' },
      { type: 'data', kind: 'input', data: { x: 1, y: 2 }, schema: { type: 'object' } },
    ]);
  });

  it('never mutates its input messages, and later edits of the result do not reach them', () => {
    const messages: Message[] = [
      { type: 'data', kind: 'k', data: { nested: { a: 1 }, list: [{ x: 1 }] } },
      { type: 'data', kind: 'k', data: { nested: { b: 2 } } },
    ];
    const copy = structuredClone(messages);
    const merged = mergeDataMessages(messages);
    expect(messages).toEqual(copy);
    const data = (
      merged[0] as { data: { nested: Record<string, unknown>; list: Array<{ x: number }> } }
    ).data;
    data.nested.c = 3;
    (data.list[0] as { x: number }).x = 99;
    expect(messages).toEqual(copy);
  });

  it('returns messages that need no merging unchanged (same objects)', () => {
    const text: Message = { type: 'text', text: 'hi' };
    const data: Message = { type: 'data', kind: 'only', data: { a: 1 } };
    const merged = mergeDataMessages([text, data]);
    expect(merged[0]).toBe(text);
    expect(merged[1]).toBe(data);
  });

  it('keeps a "__proto__" key as data and does not pollute prototypes', () => {
    const merged = mergeDataMessages([
      { type: 'data', kind: 'k', data: { a: 1 } },
      { type: 'data', kind: 'k', data: JSON.parse('{"__proto__": {"polluted": true}}') as unknown },
    ]);
    const data = (merged[0] as { data: object }).data;
    expect(Object.keys(data)).toEqual(['a', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });

  it('merges 10,000 patches of one kind into the same result as applying them one by one', () => {
    const messages: Message[] = [];
    for (let index = 0; index < 10_000; index++) {
      messages.push({ type: 'state', state: { [`key${index % 500}`]: index, last: index } });
    }
    const merged = mergeDataMessages(messages);
    expect(merged).toHaveLength(1);
    const state = (merged[0] as { state: Record<string, number> }).state;
    expect(Object.keys(state)).toHaveLength(501);
    expect(state.last).toBe(9_999);
    expect(state.key0).toBe(9_500);
  });

  it('property: merging ≡ applying the patches in order with RFC 7386', () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 6 }), (values) => {
        const messages: Message[] = values.map((data) => ({ type: 'data', kind: 'k', data }));
        const expected = values.slice(1).reduce(referenceMergePatch, values[0]);
        const merged = mergeDataMessages(messages);
        expect(merged).toHaveLength(1);
        expect((merged[0] as { data: unknown }).data).toEqual(expected);
      }),
    );
  });

  it('property: applyMergePatch matches the reference and does not mutate its arguments', () => {
    fc.assert(
      fc.property(json, json, (target, patch) => {
        const targetCopy = structuredClone(target);
        const patchCopy = structuredClone(patch);
        expect(applyMergePatch(target, patch)).toEqual(referenceMergePatch(target, patch));
        expect(target).toEqual(targetCopy);
        expect(patch).toEqual(patchCopy);
      }),
    );
  });

  it('copies a value with toJSON() (a Date) as JSON stores it, not as an empty object', () => {
    const at = new Date(Date.UTC(2026, 10, 27));
    expect(applyMergePatch({ kept: 1 }, { at, nested: { at: [at] } })).toEqual({
      kept: 1,
      at: '2026-11-27T00:00:00.000Z',
      nested: { at: ['2026-11-27T00:00:00.000Z'] },
    });
    expect(applyMergePatch({ kept: 1 }, at)).toBe('2026-11-27T00:00:00.000Z');
  });
});
