import { dataView, viewOfKind, type Message } from 'ideact';

describe('dataView', () => {
  it('normalises data, input and state messages to one shape', () => {
    expect(
      dataView({
        type: 'data',
        kind: 'user',
        data: 1,
        schema: { type: 'number' },
        description: 'd',
        _instance: 'a',
      }),
    ).toEqual({
      kind: 'user',
      data: 1,
      schema: { type: 'number' },
      description: 'd',
      instance: 'a',
    });
    expect(dataView({ type: 'input', input: { q: 1 } })).toEqual({ kind: 'input', data: { q: 1 } });
    expect(dataView({ type: 'state', state: null, _instance: 'b' })).toEqual({
      kind: 'state',
      data: null,
      instance: 'b',
    });
    expect(dataView({ type: 'data', data: 'x' })).toEqual({ data: 'x' });
  });

  it('is undefined for other message types', () => {
    expect(dataView({ type: 'text', text: 'x' })).toBeUndefined();
    expect(dataView({ type: 'system', text: 'x' })).toBeUndefined();
    expect(dataView({ type: 'result', call: { _tool: 't' } })).toBeUndefined();
  });
});

describe('viewOfKind (R-INST-1)', () => {
  const context: Message[] = [
    { type: 'state', state: { a: 1, b: { c: 1 } }, schema: { title: 'global' } },
    { type: 'state', state: { b: { d: 2 } }, _instance: 'x' },
    { type: 'state', state: { a: 2 } },
    { type: 'state', state: { b: { c: null } }, _instance: 'x', description: 'x view' },
    { type: 'state', state: { z: 1 }, _instance: 'y' },
  ];

  it('without an instance: only the global messages, merged', () => {
    expect(viewOfKind(context, 'state')).toEqual({
      kind: 'state',
      data: { a: 2, b: { c: 1 } },
      schema: { title: 'global' },
    });
  });

  it('with an instance: the targeted messages patch the global data (override; null deletes for that instance)', () => {
    expect(viewOfKind(context, 'state', 'x')).toEqual({
      kind: 'state',
      data: { a: 2, b: { d: 2 } },
      schema: { title: 'global' },
      description: 'x view',
    });
    expect(viewOfKind(context, 'state', 'none')?.data).toEqual({ a: 2, b: { c: 1 } });
  });

  it('an instance-only kind is visible to that instance only', () => {
    const only: Message[] = [{ type: 'data', kind: 'k', data: 1, _instance: 'x' }];
    expect(viewOfKind(only, 'k', 'x')?.data).toBe(1);
    expect(viewOfKind(only, 'k')).toBeUndefined();
    expect(viewOfKind(only, 'k', 'y')).toBeUndefined();
  });
});
