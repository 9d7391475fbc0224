import fc from 'fast-check';
import {
  applyOutputPath,
  IncrementalRenderer,
  OUTPUT_METHODS,
  renderMessages,
  type Message,
} from 'ideact';

/**
 * The agent loop renders its growing history incrementally; with output writes (R-OUT-5), instance
 * blocks that start from the global value (R-OUT-9) and plain patches mixed in, the result must
 * still equal `renderMessages` of the whole context (R-REQ-1, R-DATA-3).
 */
const value = fc.oneof(
  fc.integer({ min: 0, max: 9 }),
  fc.constant(null),
  fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('x', 'y'), fc.integer({ min: 0, max: 9 }), { maxKeys: 2 }),
);

const writeMessages: fc.Arbitrary<Message[]> = fc
  .record({
    path: fc.constantFrom('a', 'a.b', 'list', '†state', '†log.lines'),
    method: fc.constantFrom(...OUTPUT_METHODS),
    output: value,
    instance: fc.option(fc.constantFrom('①', '②'), { nil: undefined }),
  })
  .map(({ path, method, output, instance }) => {
    try {
      return applyOutputPath(path, { output }, instance, { method });
    } catch {
      return []; // concat of a non-array output: no write
    }
  });

const plainMessages: fc.Arbitrary<Message[]> = fc
  .oneof(
    fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 3 }) }),
    fc
      .record({
        state: fc.dictionary(fc.constantFrom('a', 'list'), value, { maxKeys: 2 }),
        instance: fc.option(fc.constantFrom('①', '②'), { nil: undefined }),
      })
      .map(({ state, instance }): Message => {
        const message: Message = { type: 'state', state };
        if (instance !== undefined) message._instance = instance;
        return message;
      }),
  )
  .map((message) => [message]);

describe('IncrementalRenderer with output writes (R-OUT-5, R-OUT-9, R-DATA-3)', () => {
  it('R-OUT-9 always equals renderMessages of the whole context as writes are appended', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.oneof(writeMessages, plainMessages), { maxLength: 3 }), {
          maxLength: 10,
        }),
        (steps) => {
          const renderer = new IncrementalRenderer();
          let context: Message[] = [];
          for (const step of steps) {
            context = [...context, ...step.flat()];
            expect(renderer.render(context)).toEqual(renderMessages(context));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
