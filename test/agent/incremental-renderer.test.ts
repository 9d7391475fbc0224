import fc from 'fast-check';
import { IncrementalRenderer, renderMessages, type Message } from 'ideact';

const kinds = fc.constantFrom('state', 'input', 'user', 'notes');
const instances = fc.option(fc.constantFrom('①', '②'), { nil: undefined });
const json = fc.dictionary(
  fc.constantFrom('a', 'b', 'c'),
  fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
  {
    maxKeys: 3,
  },
);

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: fc.string() }),
  fc.record({ type: fc.constant('system' as const), text: fc.string() }),
  fc.record({
    type: fc.constant('result' as const),
    call: fc.record({ _tool: fc.constantFrom('a', 'b') }),
    output: json,
  }),
  fc
    .record({
      type: fc.constant('data' as const),
      kind: kinds,
      data: json,
      _instance: instances,
    })
    .map((data) => {
      const copy: Message = { type: 'data', kind: data.kind, data: data.data };
      if (data._instance !== undefined) copy._instance = data._instance;
      return copy;
    }),
  fc.record({ type: fc.constant('state' as const), state: json }),
  fc.record({ type: fc.constant('data' as const), data: json }),
);

/** A step of a growing history: append messages, or replace a non-data message in place. */
const step = fc.oneof(
  fc.record({ append: fc.array(message, { maxLength: 4 }) }),
  fc.record({ replaceAt: fc.nat(), with: message }),
);

describe('IncrementalRenderer (R-REQ-1, R-DATA-1..3)', () => {
  it('always equals renderMessages of the whole context, however the context grows or changes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const renderer = new IncrementalRenderer();
        let context: Message[] = [];
        for (const change of steps) {
          if ('append' in change) context = [...context, ...change.append];
          else if (context.length > 0) {
            context = context.slice();
            context[change.replaceAt % context.length] = change.with;
          }
          const expected = renderMessages(context);
          expect(renderer.render(context)).toEqual(expected);
          expect(renderer.characters).toBe(
            expected.reduce((total, chat) => total + chat.content.length, 0),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('re-renders only appended messages when nothing earlier changed', () => {
    const renderer = new IncrementalRenderer();
    const first: Message = { type: 'result', call: { _tool: 'a' }, output: { n: 1 } };
    const before = renderer.render([first]);
    const after = renderer.render([first, { type: 'text', text: 'next' }]);
    expect(after[0]).toBe(before[0]);
    expect(after).toHaveLength(2);
  });
});
