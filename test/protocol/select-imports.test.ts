import { selectImports, type Message } from 'ideact';

const context: Message[] = [
  { type: 'system', text: 'sys' },
  { type: 'text', text: 'task' },
  { type: 'input', input: { q: 1 } },
  { type: 'state', state: { s: 0 } },
  { type: 'state', state: { s: 1 }, _instance: 'a' },
  { type: 'state', state: { s: 2 }, _instance: 'b' },
  { type: 'data', kind: 'user', data: { name: 'Ann' } },
  { type: 'data', kind: 'state', data: { extra: true }, _instance: 'a' },
  { type: 'data', data: 'kind-less' },
  { type: 'result', call: { _tool: 't', _instance: 'b' }, output: 1 },
  { type: 'result', call: { _tool: 't' }, output: 2 },
];

describe('selectImports (R-IMP-1, R-INST-1)', () => {
  it('keeps only the listed data kinds, in context order (shorthands count as their kind)', () => {
    expect(selectImports(context, ['input', 'user'])).toEqual([context[2], context[6]]);
  });

  it('with an instance: global messages plus that instance, never another instance', () => {
    expect(selectImports(context, ['state'], 'a')).toEqual([context[3], context[4], context[7]]);
    expect(selectImports(context, ['state'], 'b')).toEqual([context[3], context[5]]);
  });

  it('without an instance: every message of those kinds', () => {
    expect(selectImports(context, ['state'])).toEqual([
      context[3],
      context[4],
      context[5],
      context[7],
    ]);
  });

  it('a kind may name a message type: text, system, result; "data" = every data message', () => {
    expect(selectImports(context, ['text', 'system'])).toEqual([context[0], context[1]]);
    expect(selectImports(context, ['result'], 'a')).toEqual([context[10]]);
    expect(selectImports(context, ['data'], 'b')).toEqual([
      context[2],
      context[3],
      context[5],
      context[6],
      context[8],
    ]);
  });

  it('an empty allow-list imports nothing', () => {
    expect(selectImports(context, [])).toEqual([]);
  });
});
