import fc from 'fast-check';
import {
  IdeactError,
  InvalidOutputPathError,
  UnsafePathError,
  applyOutputPath,
  mergeDataMessages,
  parseOutputPath,
  type Message,
} from 'ideact';

const failure = { error: { code: 'ACTIVITY_FAILED', message: 'boom' } };

describe('applyOutputPath (R-OUT-1)', () => {
  it('writes the output at a plain path as a state patch', () => {
    expect(applyOutputPath('weather.today', { output: { t: 31 } })).toEqual([
      { type: 'state', state: { weather: { today: { t: 31 } } } },
    ]);
  });

  it('the †state. (or state.) prefix is optional', () => {
    const expected = [{ type: 'state', state: { weather: 'sunny' } }];
    expect(applyOutputPath('weather', { output: 'sunny' })).toEqual(expected);
    expect(applyOutputPath('†state.weather', { output: 'sunny' })).toEqual(expected);
    expect(applyOutputPath('state.weather', { output: 'sunny' })).toEqual(expected);
    expect(applyOutputPath('†state', { output: { a: 1 } })).toEqual([
      { type: 'state', state: { a: 1 } },
    ]);
  });

  it('†<kind>.path writes a data patch of that kind', () => {
    expect(applyOutputPath('†log.last', { output: 1 })).toEqual([
      { type: 'data', kind: 'log', data: { last: 1 } },
    ]);
  });

  it('R-INST-1: tags the patch with the instance; omits _instance without one', () => {
    expect(applyOutputPath('a', { output: 1 }, 'x')).toEqual([
      { type: 'state', state: { a: 1 }, _instance: 'x' },
    ]);
    expect(Object.keys(applyOutputPath('a', { output: 1 })[0] as object)).toEqual([
      'type',
      'state',
    ]);
  });

  it('a && b fans out to every path', () => {
    expect(applyOutputPath('a.b && †state.c && †log.d', { output: 5 })).toEqual([
      { type: 'state', state: { a: { b: 5 } } },
      { type: 'state', state: { c: 5 } },
      { type: 'data', kind: 'log', data: { d: 5 } },
    ]);
  });

  it('a || b: success writes the output to the first path', () => {
    expect(applyOutputPath('result || failure', { output: 'ok' })).toEqual([
      { type: 'state', state: { result: 'ok' } },
    ]);
  });

  it('a || b: failure writes { error: { code, message } } to the last path', () => {
    expect(applyOutputPath('result || first.failure || last.failure', failure)).toEqual([
      { type: 'state', state: { last: { failure: { error: failure.error } } } },
    ]);
  });

  it('a failure without || writes nothing', () => {
    expect(applyOutputPath('result', failure)).toEqual([]);
    expect(applyOutputPath('a && b', failure)).toEqual([]);
  });

  it('the patches merge into the State (R-DATA-1)', () => {
    const context: Message[] = [
      { type: 'state', state: { weather: { yesterday: 20 } } },
      ...applyOutputPath('weather.today', { output: 31 }),
    ];
    expect(mergeDataMessages(context)).toEqual([
      { type: 'state', state: { weather: { yesterday: 20, today: 31 } } },
    ]);
  });

  it('does not alias the output object', () => {
    const output = { nested: { a: 1 } };
    const [patch] = applyOutputPath('x', { output }) as unknown as [
      { state: { x: { nested: { a: number } } } },
    ];
    patch.state.x.nested.a = 2;
    expect(output.nested.a).toBe(1);
  });

  it('R-OUT-2: rejects __proto__, prototype and constructor with UnsafePathError (path, segment)', () => {
    for (const path of ['__proto__.x', 'a.prototype', '†state.constructor', 'ok || a.__proto__']) {
      let caught: unknown;
      try {
        applyOutputPath(path, { output: 1 });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UnsafePathError);
      expect((caught as UnsafePathError).path).toBe(path);
      expect(['__proto__', 'prototype', 'constructor']).toContain(
        (caught as UnsafePathError).segment,
      );
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('rejects malformed paths with InvalidOutputPathError', () => {
    for (const path of ['', ' ', 'a..b', 'a ||', '|| a', 'a[0]', '†', '.a', 'a.']) {
      expect(() => applyOutputPath(path, { output: 1 })).toThrow(InvalidOutputPathError);
    }
  });

  it('parseOutputPath exposes the parsed alternatives', () => {
    expect(parseOutputPath('a && †log.b || c')).toEqual([
      [
        { kind: 'state', path: ['a'], text: 'a' },
        { kind: 'log', path: ['b'], text: '†log.b' },
      ],
      [{ kind: 'state', path: ['c'], text: 'c' }],
    ]);
  });

  it('property: parsing arbitrary strings never throws anything but an IdeactError', () => {
    const pathLike = fc.stringMatching(/^[a-z_.[\]0-9†|& ]{0,20}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string(), pathLike), (path) => {
        try {
          applyOutputPath(path, { output: 1 });
          applyOutputPath(path, failure, 'i');
        } catch (error) {
          expect(IdeactError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
