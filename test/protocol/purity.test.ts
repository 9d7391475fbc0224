import fc from 'fast-check';
import {
  buildVesselSchema,
  formatJson,
  mergeDataMessages,
  renderMessages,
  validateJson,
  type JSONSchema,
  type Message,
  type ToolSchema,
} from 'ideact';

/** Pure means pure (issue 15): protocol functions see in-place edits of their inputs. */

const value = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.boolean());
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({
    type: fc.constant('data' as const),
    kind: fc.constantFrom('user', 'notes'),
    data: fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 }),
  }),
  fc.record({
    type: fc.constant('result' as const),
    call: fc.record({ _tool: fc.constantFrom('getWeather', 'note'), city: fc.string() }),
    output: fc.dictionary(fc.constantFrom('x', 'y'), value, { maxKeys: 2 }),
  }),
  fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 6 }) }),
);

/** Replaces the data/output/text of every message in place with `replacement`. */
function editInPlace(messages: Message[], replacement: string): void {
  for (const item of messages) {
    if (item.type === 'data') (item.data as Record<string, unknown>).edited = replacement;
    else if (item.type === 'result') item.output = { edited: replacement };
    else if (item.type === 'text') item.text = replacement;
  }
}

describe('protocol functions are pure (R-DATA-3)', () => {
  it('renderMessages and mergeDataMessages return the new content after messages are edited in place', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 6 }),
        fc.string({ maxLength: 5 }),
        (messages, replacement) => {
          renderMessages(messages);
          mergeDataMessages(messages);
          editInPlace(messages, replacement);
          const fresh = structuredClone(messages);
          expect(renderMessages(messages)).toEqual(renderMessages(fresh));
          expect(mergeDataMessages(messages)).toEqual(mergeDataMessages(fresh));
        },
      ),
    );
  });

  it('validateJson checks against the schema as edited in place, not a cached compile', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        (limit, sample) => {
          const schema: JSONSchema = {
            type: 'object',
            properties: { n: { type: 'integer', maximum: 100 } },
          };
          validateJson(schema, { n: sample });
          (schema.properties!.n as JSONSchema).maximum = limit;
          expect(validateJson(schema, { n: sample }).length === 0).toBe(sample <= limit);
        },
      ),
    );
  });

  it('buildVesselSchema and formatJson reflect a tool or value edited in place', () => {
    const tool: ToolSchema = {
      type: 'object',
      properties: { _tool: { const: 'getWeather' }, city: { type: 'string' } },
      required: ['_tool', 'city'],
    } as ToolSchema;
    const before = JSON.stringify(buildVesselSchema([tool]));
    tool.properties.days = { type: 'integer' };
    const after = JSON.stringify(buildVesselSchema([tool]));
    expect(after).not.toBe(before);
    expect(after).toContain('"days"');

    const data: Record<string, unknown> = { city: 'Oslo' };
    expect(formatJson(data)).toContain('Oslo');
    data.city = 'Bergen';
    expect(formatJson(data)).toContain('Bergen');
  });
});
