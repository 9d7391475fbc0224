import fc from 'fast-check';
import { buildVesselSchema, type JSONSchema, type ToolSchema } from 'ideact';
import { discriminatedVesselSchema } from '../../src/protocol/discriminated-vessel-schema';
import {
  compileOwnedValidator,
  compileVesselValidator,
  vesselPreCheck,
} from '../../src/protocol/json-validation';

const sendMail: ToolSchema = {
  type: 'object',
  description: 'Sends a mail.',
  properties: {
    _tool: { const: 'sendMail' },
    to: { type: 'string', format: 'email' },
    subject: { type: 'string', maxLength: 20 },
  },
  required: ['_tool', 'to'],
  additionalProperties: false,
};
const route: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'route' },
    stops: { type: 'array', items: { $ref: '#/$defs/Stop' }, minItems: 1 },
    mode: { enum: ['bus', 'tram'] },
  },
  required: ['_tool', 'stops'],
  $defs: {
    Stop: {
      type: 'object',
      properties: { name: { type: 'string' }, minutes: { type: 'integer', minimum: 0 } },
      required: ['name'],
    },
  },
};
const add: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'add' }, a: { type: 'number' }, b: { type: 'number' } },
  required: ['_tool', 'a', 'b'],
};
const vessel = buildVesselSchema([sendMail, route, add]);

/** Calls that are valid, or wrong in exactly one way (a format, an extra key, a bad tag…). */
const nearlyValidCall = fc.constantFrom<Record<string, unknown>>(
  { _tool: 'add', a: 1, b: 2 },
  { _tool: 'add', a: '†state.x', b: 2 },
  { _tool: 'add', a: 'x', b: 2 },
  { _tool: 'sendMail', to: 'ann@example.com' },
  { _tool: 'sendMail', to: 'not an email' },
  { _tool: 'sendMail', to: 'ann@example.com', subject: 'a subject far longer than twenty' },
  { _tool: 'sendMail', to: 'ann@example.com', cc: 'x' },
  { _tool: 'route', stops: [{ name: 'A', minutes: 2 }], mode: 'tram' },
  { _tool: 'route', stops: [] },
  { _tool: 'route', stops: [{ name: 'A', minutes: -1 }] },
  { _tool: 'route', stops: [{ name: 'A' }], mode: 'ship' },
  { _tool: 'nope' },
  { to: 'ann@example.com' },
);
/** Anything else a model might write. */
const randomCall = fc.oneof(
  fc.record(
    {
      _tool: fc.constantFrom('sendMail', 'route', 'add', 'nope'),
      to: fc.constantFrom('ann@example.com', 'not an email', 3),
      stops: fc.array(fc.record({ name: fc.constantFrom('A', 7) }, { requiredKeys: [] })),
      a: fc.oneof(fc.integer(), fc.constant('x')),
      b: fc.integer(),
    },
    { requiredKeys: ['_tool'] },
  ),
  fc.jsonValue(),
);
const callValue = fc.oneof(
  { arbitrary: nearlyValidCall, weight: 4 },
  { arbitrary: randomCall, weight: 1 },
);
const vesselValue = fc.oneof(
  fc.record({ calls: fc.array(callValue, { maxLength: 3 }), output: fc.constant(null) }),
  fc.record({ calls: fc.array(callValue, { maxLength: 2 }), output: fc.jsonValue() }),
  fc.jsonValue(),
);

describe('the Vessel validator (issue 28: each Call checked against its own Tool first)', () => {
  it("reports exactly what the schema's own validator reports, for any value (property)", () => {
    const own = compileOwnedValidator(vessel);
    const discriminated = compileVesselValidator(vessel);
    fc.assert(
      fc.property(vesselValue, (value) => {
        expect(discriminated(value)).toEqual(own(value));
      }),
      { numRuns: 400 },
    );
  });

  it('accepts a valid Vessel and keeps formats, nested $refs and additionalProperties', () => {
    // The pre-check exists for an ordinary Vessel (else every value would take the slow way).
    const preCheck = vesselPreCheck(vessel);
    expect(preCheck).not.toBeNull();
    const validate = compileVesselValidator(vessel);
    const valid = {
      calls: [
        { _tool: 'add', a: 1, b: 2 },
        { _tool: 'sendMail', to: 'ann@example.com' },
        { _tool: 'route', stops: [{ name: 'A', minutes: 3 }] },
      ],
      output: null,
    };
    expect(validate(valid)).toEqual([]);
    expect(preCheck?.(valid)).toBe(true);
    const bad = {
      calls: [
        { _tool: 'sendMail', to: 'not an email', cc: 'x' },
        { _tool: 'route', stops: [{ minutes: -1 }] },
      ],
      output: null,
    };
    expect(preCheck?.(bad)).toBe(false);
    expect(preCheck?.({ ...valid, calls: [{ _tool: 'sendMail', to: 'not an email' }] })).toBe(
      false,
    );
    expect(
      validate(bad)
        .map((issue) => issue.path)
        .sort(),
    ).toEqual(['/calls/0', '/calls/0/to', '/calls/1/stops/0', '/calls/1/stops/0/minutes']);
  });

  it('makes a discriminated copy only of a Vessel whose Tools are told apart by _tool', () => {
    const text = JSON.stringify(vessel);
    const copy = discriminatedVesselSchema(vessel, text) as JSONSchema;
    const items = (copy.properties?.calls as JSONSchema).items as JSONSchema;
    expect(items).toMatchObject({ discriminator: { propertyName: '_tool' }, required: ['_tool'] });
    expect(items.oneOf).toHaveLength(3);
    // The schema itself is left as it is (the LLM is sent it; providers may not know the keyword).
    expect(JSON.stringify(vessel)).toBe(text);
    // A Tool named twice, a schema that uses `discriminator` itself, one Tool: no copy.
    const twice = structuredClone(vessel);
    const branches = ((twice.properties?.calls as JSONSchema).items as JSONSchema)
      .anyOf as JSONSchema[];
    (branches[1]!.properties as Record<string, JSONSchema>)._tool = { const: 'sendMail' };
    expect(discriminatedVesselSchema(twice, JSON.stringify(twice))).toBeUndefined();
    const own = buildVesselSchema([
      {
        ...add,
        properties: { ...add.properties, shape: { discriminator: { propertyName: 'k' } } },
      },
      sendMail,
    ]);
    expect(discriminatedVesselSchema(own, JSON.stringify(own))).toBeUndefined();
    const single = buildVesselSchema([add]);
    expect(discriminatedVesselSchema(single, JSON.stringify(single))).toBeUndefined();
  });
});
