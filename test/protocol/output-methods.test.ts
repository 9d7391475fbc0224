import {
  applyOutputPath,
  InvalidOutputWriteError,
  mergeDataMessages,
  UnsafePathError,
  viewOfKind,
  type Message,
  type OutputMethod,
} from 'ideact';

/** Issue 17 item 2: the five output methods (R-OUT-3) and how reading folds the writes (R-OUT-6). */

/** The write messages of `output` at `path` with `method` (what a Call appends, R-OUT-5). */
function write(path: string, output: unknown, method: OutputMethod = 'set'): Message[] {
  return applyOutputPath(path, { output }, undefined, { method });
}

/** The State as a reference, a render or a Call reads it. */
function state(context: Message[]): unknown {
  return viewOfKind(context, 'state')?.data;
}

/** The value after writing `output` with `method` onto a State that holds `before` at `value`. */
function after(before: unknown, method: OutputMethod, output: unknown): unknown {
  const context: Message[] = [{ type: 'state', state: { value: before } }];
  context.push(...write('value', output, method));
  return (state(context) as { value?: unknown }).value;
}

describe('output methods on scalars, objects and arrays (R-OUT-3)', () => {
  it('R-OUT-3 set replaces the value whatever it was', () => {
    expect(after(1, 'set', 2)).toBe(2);
    expect(after({ a: 1, b: { c: 2 } }, 'set', { b: { d: 3 } })).toEqual({ b: { d: 3 } });
    expect(after([1, 2], 'set', [3])).toEqual([3]);
    expect(after({ a: 1 }, 'set', 'text')).toBe('text');
    expect(after(1, 'set', null)).toBeNull();
  });

  it('R-OUT-3 merge merges an object deeply (RFC 7386: null deletes); other outputs replace', () => {
    expect(after({ a: 1, b: { c: 2, d: 3 } }, 'merge', { b: { d: 4, e: 5 }, f: 6 })).toEqual({
      a: 1,
      b: { c: 2, d: 4, e: 5 },
      f: 6,
    });
    expect(after({ a: 1, b: 2 }, 'merge', { b: null })).toEqual({ a: 1 });
    expect(after({ list: [1, 2] }, 'merge', { list: [3] })).toEqual({ list: [3] });
    expect(after(7, 'merge', { a: 1 })).toEqual({ a: 1 });
    expect(after({ a: 1 }, 'merge', 'scalar')).toBe('scalar');
    expect(after([1], 'merge', [2])).toEqual([2]);
  });

  it('R-OUT-3 assign replaces top-level keys only (nested objects are not merged; null is kept)', () => {
    expect(after({ a: 1, b: { c: 2, d: 3 } }, 'assign', { b: { d: 4 }, e: null })).toEqual({
      a: 1,
      b: { d: 4 },
      e: null,
    });
    expect(after('text', 'assign', { a: 1 })).toEqual({ a: 1 });
    expect(after({ a: 1 }, 'assign', 5)).toBe(5);
  });

  it('R-OUT-3 push appends the output as one item: scalars, objects and arrays', () => {
    expect(after([1], 'push', 2)).toEqual([1, 2]);
    expect(after([1], 'push', { a: 1 })).toEqual([1, { a: 1 }]);
    expect(after([1], 'push', [2, 3])).toEqual([1, [2, 3]]);
    expect(after(undefined, 'push', 'first')).toEqual(['first']);
    expect(after(null, 'push', 'first')).toEqual(['first']);
  });

  it('R-OUT-3 concat appends the items of an array output', () => {
    expect(after([1], 'concat', [2, 3])).toEqual([1, 2, 3]);
    expect(after([{ a: 1 }], 'concat', [{ b: 2 }, [3]])).toEqual([{ a: 1 }, { b: 2 }, [3]]);
    expect(after(undefined, 'concat', [1])).toEqual([1]);
    expect(after([1], 'concat', [])).toEqual([1]);
  });

  it('R-OUT-3 a write never aliases the output nor mutates earlier messages', () => {
    const output = { items: [1] };
    const context: Message[] = [...write('a', output), ...write('a.items', 2, 'push')];
    const frozen = JSON.stringify(context);
    expect(state(context)).toEqual({ a: { items: [1, 2] } });
    expect(state(context)).toEqual({ a: { items: [1, 2] } });
    expect(JSON.stringify(context)).toBe(frozen);
    expect(output).toEqual({ items: [1] });
  });
});

describe('reading folds the writes (R-OUT-6)', () => {
  it('R-OUT-6 the writes of one path apply oldest first, from the newest set on (set in the middle)', () => {
    const context: Message[] = [
      ...write('log', 'a', 'push'),
      ...write('log', 'b', 'push'),
      ...write('log', ['reset'], 'set'),
      ...write('log', 'c', 'push'),
      ...write('log', ['d', 'e'], 'concat'),
    ];
    expect(state(context)).toEqual({ log: ['reset', 'c', 'd', 'e'] });
  });

  it('R-OUT-6 a path the newest writes do not touch falls through to older ones', () => {
    const context: Message[] = [
      ...write('a', 1),
      ...write('b', [1]),
      ...write('b', 2, 'push'),
      ...write('c', { x: 1 }),
    ];
    expect(state(context)).toEqual({ a: 1, b: [1, 2], c: { x: 1 } });
  });

  it('R-OUT-6.1 a set at `a` hides every older write at `a` and below it', () => {
    const context: Message[] = [
      ...write('a.b', [1]),
      ...write('a.b', 2, 'push'),
      ...write('a.c', 'kept?'),
      ...write('a', { fresh: true }),
    ];
    expect(state(context)).toEqual({ a: { fresh: true } });
  });

  it('R-OUT-6.2 a write at `a.b` after a set at `a` changes only `a.b`', () => {
    const context: Message[] = [...write('a', { b: [1], c: 'kept' }), ...write('a.b', 2, 'push')];
    expect(state(context)).toEqual({ a: { b: [1, 2], c: 'kept' } });
  });

  it('R-OUT-6.3 a merge at `a` after a set at `a.b` merges into `a` and into `a.b` when it names `b`', () => {
    const base: Message[] = [...write('a', { x: 1 }), ...write('a.b', { c: 1, d: 2 })];
    expect(state([...base, ...write('a', { y: 2 }, 'merge')])).toEqual({
      a: { x: 1, b: { c: 1, d: 2 }, y: 2 },
    });
    expect(state([...base, ...write('a', { b: { d: 3 } }, 'merge')])).toEqual({
      a: { x: 1, b: { c: 1, d: 3 } },
    });
  });

  it('R-OUT-6.4 an assign at `a` after a set at `a.b` replaces `a.b` only when it names `b`', () => {
    const base: Message[] = [...write('a.b', { c: 1, d: 2 })];
    expect(state([...base, ...write('a', { y: 2 }, 'assign')])).toEqual({
      a: { b: { c: 1, d: 2 }, y: 2 },
    });
    expect(state([...base, ...write('a', { b: { d: 3 } }, 'assign')])).toEqual({
      a: { b: { d: 3 } },
    });
  });

  it('R-OUT-6.5 writes below a value that is not an object replace it with an object', () => {
    const context: Message[] = [...write('a', 'text'), ...write('a.b', 1, 'push')];
    expect(state(context)).toEqual({ a: { b: [1] } });
  });

  it('R-OUT-6.6 plain patches (no metadata) merge at the root where they stand', () => {
    const context: Message[] = [
      { type: 'state', state: { log: ['seed'], user: { name: 'Ann', zip: '1' } } },
      ...write('log', 'a', 'push'),
      { type: 'state', state: { user: { zip: null } } },
      ...write('user.city', 'Oslo'),
    ];
    expect(state(context)).toEqual({ log: ['seed', 'a'], user: { name: 'Ann', city: 'Oslo' } });
    // A plain patch of an array replaces it, as R-DATA-1 always did.
    expect(state([...context, { type: 'state', state: { log: [] } }])).toMatchObject({ log: [] });
  });

  it('R-OUT-6.7 a set of the whole kind (†state) starts the fold: nothing older shows through', () => {
    const context: Message[] = [
      { type: 'state', state: { old: true }, description: 'The run memory.' },
      ...write('a', 1),
      ...write('†state', { b: 2 }),
      ...write('c', 3),
    ];
    expect(viewOfKind(context, 'state')).toEqual({
      kind: 'state',
      data: { b: 2, c: 3 },
      description: 'The run memory.',
    });
  });

  it('R-OUT-6 other kinds (†log.x) fold the same way, separately from the State', () => {
    const context: Message[] = [
      ...write('†log.lines', 'a', 'push'),
      ...write('lines', 'state!', 'push'),
      ...write('†log.lines', ['b'], 'concat'),
    ];
    expect(viewOfKind(context, 'log')?.data).toEqual({ lines: ['a', 'b'] });
    expect(state(context)).toEqual({ lines: ['state!'] });
  });

  it('R-OUT-1 a && b writes every path with the method; a || b failure is a set', () => {
    const context: Message[] = [
      { type: 'state', state: { a: [0], b: [] } },
      ...applyOutputPath('a && b', { output: 1 }, undefined, { method: 'push' }),
      ...applyOutputPath('ok || failed', { error: { code: 'X', message: 'm' } }, undefined, {
        method: 'push',
      }),
    ];
    expect(state(context)).toEqual({
      a: [0, 1],
      b: [1],
      failed: { error: { code: 'X', message: 'm' } },
    });
    expect(context[context.length - 1]).toMatchObject({ _outputMethod: 'set' });
  });
});

describe('unsafe paths (R-OUT-2)', () => {
  it('R-OUT-2 every method still rejects __proto__, prototype and constructor segments', () => {
    for (const method of ['set', 'merge', 'assign', 'push', 'concat'] as const) {
      expect(() => applyOutputPath('a.__proto__', { output: [1] }, undefined, { method })).toThrow(
        UnsafePathError,
      );
    }
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });
});

describe('push and concat need arrays (R-OUT-7)', () => {
  const context: Message[] = [{ type: 'state', state: { name: 'Ann', list: [1], user: {} } }];

  function failure(run: () => unknown): InvalidOutputWriteError {
    try {
      run();
    } catch (error) {
      if (InvalidOutputWriteError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('expected InvalidOutputWriteError');
  }

  it('R-OUT-7 push onto a value that is not an array is a typed error naming call, tool, path and method', () => {
    const error = failure(() =>
      applyOutputPath('name', { output: 'x' }, undefined, {
        method: 'push',
        context,
        callId: '3:1',
        toolName: 'note',
      }),
    );
    expect(error.code).toBe('INVALID_OUTPUT_WRITE');
    expect(error.callId).toBe('3:1');
    expect(error.toolName).toBe('note');
    expect(error.path).toBe('†state.name');
    expect(error.method).toBe('push');
    expect(error.message).toContain('Call 3:1 of tool "note" cannot push to "†state.name"');
    expect(error.message).toContain('a string, not an array');
    expect(() =>
      applyOutputPath('user', { output: 1 }, undefined, { method: 'concat', context }),
    ).toThrow(InvalidOutputWriteError);
  });

  it('R-OUT-7 concat of an output that is not an array is a typed error, with or without a context', () => {
    const error = failure(() =>
      applyOutputPath('list', { output: 5 }, undefined, { method: 'concat' }),
    );
    expect(error.method).toBe('concat');
    expect(error.message).toContain('the output is a number, not an array');
  });

  it('R-OUT-7 with a && b nothing is written when one path fails', () => {
    expect(() =>
      applyOutputPath('list && name', { output: 1 }, undefined, { method: 'push', context }),
    ).toThrow(InvalidOutputWriteError);
    expect(
      applyOutputPath('list && fresh', { output: 1 }, undefined, { method: 'push', context }),
    ).toHaveLength(2);
  });

  it('R-OUT-7 at read time a push that no longer applies (a parallel set replaced the array) is skipped', () => {
    const raced: Message[] = [
      ...write('list', [1]),
      ...write('list', 'replaced'),
      ...write('list', 2, 'push'),
      ...write('list', { not: 'an array' } as unknown, 'set'),
      { type: 'state', state: { other: 1 }, _outputPath: '†state.other', _outputMethod: 'concat' },
    ];
    expect(state(raced.slice(0, 3))).toEqual({ list: 'replaced' });
    // A concat of a non-array output (hand-written) is skipped too; the rest still reads.
    expect(state(raced)).toEqual({ list: { not: 'an array' } });
    expect(mergeDataMessages(raced)).toEqual([
      { type: 'state', state: { list: { not: 'an array' } } },
    ]);
  });
});
