import fc from 'fast-check';
import {
  IdeactError,
  UnresolvedReferenceError,
  UnsafePathError,
  resolveReferences,
  type Message,
} from 'ideact';

const context: Message[] = [
  { type: 'input', input: { city: 'Austin', days: 3 } },
  { type: 'state', state: { user: { name: 'Ann', tags: ['a', 'b'] }, list: [{ id: 7 }] } },
  { type: 'state', state: { user: { city: 'Paris' } } },
  { type: 'data', kind: 'config', data: { unit: 'C', zero: 0, empty: '', off: false } },
  { type: 'state', state: { user: { city: 'Rome' } }, _instance: 'b' },
  { type: 'data', kind: 'config', data: { unit: 'F' }, _instance: 'b' },
  { type: 'data', kind: 'only-b', data: { x: 1 }, _instance: 'b' },
];

describe('resolveReferences (R-VAR-1)', () => {
  it('replaces †kind.path with the value from the merged data of that kind', () => {
    expect(
      resolveReferences(
        { city: '†state.user.city', name: '†state.user.name', unit: '†config.unit' },
        context,
      ),
    ).toEqual({ city: 'Paris', name: 'Ann', unit: 'C' });
  });

  it('supports array indexes, a whole kind, and keeps the resolved value type', () => {
    expect(
      resolveReferences(
        {
          tag: '†state.user.tags[1]',
          id: '†state.list[0].id',
          input: '†input',
          days: '†input.days',
        },
        context,
      ),
    ).toEqual({ tag: 'b', id: 7, input: { city: 'Austin', days: 3 }, days: 3 });
  });

  it('reads .0 on an array as [0]', () => {
    expect(resolveReferences({ id: '†state.list.0.id' }, context)).toEqual({ id: 7 });
  });

  it('a || b: the first present alternative', () => {
    expect(resolveReferences({ v: '†state.missing || †input.city' }, context)).toEqual({
      v: 'Austin',
    });
    expect(resolveReferences({ v: '†state.user.city || †input.city' }, context)).toEqual({
      v: 'Paris',
    });
    expect(resolveReferences({ v: '†nokind.x || †state.nope || †config.unit' }, context)).toEqual({
      v: 'C',
    });
  });

  it('a && b: all must be present, the value is the last', () => {
    expect(resolveReferences({ v: '†input.city && †state.user.name' }, context)).toEqual({
      v: 'Ann',
    });
    expect(() => resolveReferences({ v: '†input.city && †state.nope' }, context)).toThrow(
      UnresolvedReferenceError,
    );
  });

  it('&& binds tighter than ||', () => {
    expect(resolveReferences({ v: '†input.city && †state.nope || †config.unit' }, context)).toEqual(
      {
        v: 'C',
      },
    );
  });

  it('falsy values other than null are present', () => {
    expect(
      resolveReferences(
        { a: '†config.zero || †input.city', b: '†config.empty', c: '†config.off' },
        context,
      ),
    ).toEqual({ a: 0, b: '', c: false });
  });

  it('resolves inside nested params and arrays and leaves other strings untouched', () => {
    const params = {
      query: { where: { city: '†state.user.city' }, text: 'weather in †state.user.city' },
      list: ['†input.days', 'plain', ['†config.unit'], 5, null],
    };
    expect(resolveReferences(params, context)).toEqual({
      query: { where: { city: 'Paris' }, text: 'weather in †state.user.city' },
      list: [3, 'plain', ['C'], 5, null],
    });
  });

  it('copies params that hold no reference too: an Activity editing them edits no Call', () => {
    const params = JSON.parse(
      '{ "where": { "city": "Paris" }, "list": [[1], { "a": 2 }], "__proto__": { "x": 1 } }',
    ) as Record<string, unknown>;
    const resolved = resolveReferences(params, context) as Record<string, unknown>;
    expect(resolved).toEqual(params);
    expect(resolved.where).not.toBe(params.where);
    expect(resolved.list).not.toBe(params.list);
    expect((resolved.list as unknown[])[0]).not.toBe((params.list as unknown[])[0]);
    // A `__proto__` key the model wrote stays data: it never becomes the copy's prototype.
    expect(Object.getPrototypeOf(resolved)).toBe(Object.prototype);
    expect(Object.keys(resolved)).toEqual(['where', 'list', '__proto__']);
  });

  it('returns a new value and never mutates the params or the context', () => {
    const params = { nested: { city: '†state.user.city' } };
    const contextCopy = structuredClone(context);
    const resolved = resolveReferences(params, context);
    expect(params).toEqual({ nested: { city: '†state.user.city' } });
    expect(resolved).not.toBe(params);
    (resolved as { nested: { city: unknown } }).nested.city = 'changed';
    const whole = resolveReferences({ user: '†state.user' }, context) as unknown as {
      user: { name: string };
    };
    whole.user.name = 'mutated';
    expect(context).toEqual(contextCopy);
  });

  it('leaves top-level _ meta-fields alone (e.g. _outputPath written with †state.)', () => {
    expect(
      resolveReferences(
        { _tool: 'x', _outputPath: '†state.weather', city: '†input.city' },
        context,
      ),
    ).toEqual({ _tool: 'x', _outputPath: '†state.weather', city: 'Austin' });
  });

  it('R-INST-1: routes to the instance — its data overrides the global data of that kind', () => {
    expect(
      resolveReferences(
        {
          city: '†state.user.city',
          name: '†state.user.name',
          unit: '†config.unit',
          x: '†only-b.x',
        },
        context,
        'b',
      ),
    ).toEqual({ city: 'Rome', name: 'Ann', unit: 'F', x: 1 });
    expect(resolveReferences({ city: '†state.user.city' }, context, 'a')).toEqual({
      city: 'Paris',
    });
  });

  it('R-INST-1: without an instance, instance data is not visible', () => {
    expect(() => resolveReferences({ x: '†only-b.x' }, context)).toThrow(UnresolvedReferenceError);
  });

  it('an unresolvable reference throws UnresolvedReferenceError naming the reference and the instance', () => {
    let caught: unknown;
    try {
      resolveReferences({ v: '†state.user.zip || †input.zip' }, context, 'a');
    } catch (error) {
      caught = error;
    }
    expect(UnresolvedReferenceError.isInstance(caught)).toBe(true);
    const error = caught as UnresolvedReferenceError;
    expect(error.reference).toBe('†state.user.zip || †input.zip');
    expect(error.instance).toBe('a');
    expect(error.message).toContain('†state.user.zip || †input.zip');
    expect(error.message).toContain('instance "a"');
    expect(error.message).toContain('user.zip');
  });

  it('names a missing kind', () => {
    expect(() => resolveReferences({ v: '†weather.today' }, context)).toThrow(
      /no data message of kind "weather"/,
    );
  });

  it('rejects malformed references with UnresolvedReferenceError', () => {
    for (const reference of [
      '†',
      '†state..user',
      '†state.user ||',
      '†state.user || input.city',
      '†[0]',
    ]) {
      expect(() => resolveReferences({ v: reference }, context)).toThrow(UnresolvedReferenceError);
    }
  });

  it('R-OUT-2: rejects __proto__, prototype and constructor segments with UnsafePathError', () => {
    for (const segment of ['__proto__', 'prototype', 'constructor']) {
      let caught: unknown;
      try {
        resolveReferences({ v: `†state.${segment}.x` }, context);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UnsafePathError);
      expect((caught as UnsafePathError).segment).toBe(segment);
      expect(IdeactError.isInstance(caught)).toBe(true);
    }
  });

  it('does not read inherited properties', () => {
    expect(() => resolveReferences({ v: '†state.user.toString' }, context)).toThrow(
      UnresolvedReferenceError,
    );
    expect(() => resolveReferences({ v: '†state.user.tags.length' }, context)).toThrow(
      UnresolvedReferenceError,
    );
  });

  it('property: resolving arbitrary strings never throws anything but an IdeactError', () => {
    const referenceLike = fc.stringMatching(/^†[a-z_.[\]0-9†|& ]{0,20}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string(), referenceLike), (text) => {
        try {
          resolveReferences({ v: text }, context, 'b');
        } catch (error) {
          expect(IdeactError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
