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

/** The metadata a write records (R-OUT-5) besides its value; `set` unless told. */
function written(path: string, method = 'set'): { _outputPath: string; _outputMethod: string } {
  return { _outputPath: path, _outputMethod: method };
}

describe('applyOutputPath (R-OUT-1, R-OUT-5)', () => {
  it('writes the output at a plain path as a state message that records the path and method', () => {
    expect(applyOutputPath('weather.today', { output: { t: 31 } })).toEqual([
      {
        type: 'state',
        state: { weather: { today: { t: 31 } } },
        ...written('†state.weather.today'),
      },
    ]);
  });

  it('the †state. (or state.) prefix is optional', () => {
    const expected = [{ type: 'state', state: { weather: 'sunny' }, ...written('†state.weather') }];
    expect(applyOutputPath('weather', { output: 'sunny' })).toEqual(expected);
    expect(applyOutputPath('†state.weather', { output: 'sunny' })).toEqual(expected);
    expect(applyOutputPath('state.weather', { output: 'sunny' })).toEqual(expected);
    expect(applyOutputPath('†state', { output: { a: 1 } })).toEqual([
      { type: 'state', state: { a: 1 }, ...written('†state') },
    ]);
  });

  it('†<kind>.path writes a data patch of that kind', () => {
    expect(applyOutputPath('†log.last', { output: 1 })).toEqual([
      { type: 'data', kind: 'log', data: { last: 1 }, ...written('†log.last') },
    ]);
  });

  it('R-INST-1: tags the write with the instance; omits _instance without one', () => {
    expect(applyOutputPath('a', { output: 1 }, 'x')).toEqual([
      { type: 'state', state: { a: 1 }, _instance: 'x', ...written('†state.a') },
    ]);
    expect(Object.keys(applyOutputPath('a', { output: 1 })[0] as object)).toEqual([
      'type',
      'state',
      '_outputPath',
      '_outputMethod',
    ]);
  });

  it('a && b fans out to every path', () => {
    expect(applyOutputPath('a.b && †state.c && †log.d', { output: 5 })).toEqual([
      { type: 'state', state: { a: { b: 5 } }, ...written('†state.a.b') },
      { type: 'state', state: { c: 5 }, ...written('†state.c') },
      { type: 'data', kind: 'log', data: { d: 5 }, ...written('†log.d') },
    ]);
  });

  it('a || b: success writes the output to the first path', () => {
    expect(applyOutputPath('result || failure', { output: 'ok' })).toEqual([
      { type: 'state', state: { result: 'ok' }, ...written('†state.result') },
    ]);
  });

  it('a || b: failure writes { error: { code, message } } to the last path', () => {
    expect(applyOutputPath('result || first.failure || last.failure', failure)).toEqual([
      {
        type: 'state',
        state: { last: { failure: { error: failure.error } } },
        ...written('†state.last.failure'),
      },
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
