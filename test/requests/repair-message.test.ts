import {
  InvalidSolutionError,
  buildVesselSchema,
  createAgent,
  request,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

const getWeather: ToolSchema = {
  type: 'object',
  description: 'The weather of a city.',
  properties: {
    _tool: { const: 'getWeather' },
    city: { type: 'string' },
    color: { type: 'string', enum: ['red', 'blue'] },
    days: { type: 'integer', minimum: 1 },
  },
  required: ['_tool', 'city'],
};
const getTime: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'getTime' }, zone: { type: 'string' } },
  required: ['_tool', 'zone'],
};
const search: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'search' }, query: { type: 'string' }, limit: { type: 'integer' } },
  required: ['_tool', 'query'],
};

/** Runs an agent whose model first writes `invalid`, then a valid Call, then the answer. */
async function repairAfter(invalid: unknown): Promise<{ repair: string; seen: unknown[] }> {
  const seen: unknown[] = [];
  const provider = new ScriptedProvider(
    [
      invalid,
      { calls: [{ _tool: 'getWeather', city: 'Oslo', color: 'blue' }], output: null },
      { calls: [], output: 'done' },
    ],
    { validate: false },
  );
  const agent = createAgent({
    tools: [getWeather, getTime, search],
    activities: [
      {
        getWeather: (params) => (seen.push(params), 'sunny'),
        getTime: () => '12:00',
        search: () => [],
      },
    ],
    provider,
  });
  const result = await agent.run({ task: 'Weather in Oslo, painted.' });
  expect(result.output).toBe('done');
  provider.assertComplete();
  const second = provider.requests[1]!.messages;
  expect(second.at(-2)).toMatchObject({ role: 'assistant', content: JSON.stringify(invalid) });
  const repair = second.at(-1)!;
  expect(repair.role).toBe('user');
  return { repair: String(repair.content), seen };
}

/** The issue lines of a repair prompt (between its first line and its closing instruction). */
function issueLines(repair: string): string[] {
  return repair.split('\n').slice(1, -1);
}

describe('R-REQ-3 repair messages speak of the tool the model called (issue 14 items 5, 6, 13)', () => {
  it('"color": "purple" for an enum is repaired; the repair lists that param of that tool only', async () => {
    const { repair, seen } = await repairAfter({
      calls: [{ _tool: 'getWeather', city: 'Oslo', color: 'purple' }],
      output: null,
    });
    expect(issueLines(repair)).toEqual([
      '/calls/0/color: must be equal to one of the allowed values: "red", "blue"',
    ]);
    expect(repair).not.toContain('getTime');
    expect(repair).not.toContain('anyOf');
    // the invalid value never reached the Activity: only the repaired Call ran
    expect(seen).toEqual([{ city: 'Oslo', color: 'blue' }]);
  });

  it('two mistakes in one Call of one tool give two lines, each naming its path', async () => {
    const { repair } = await repairAfter({
      calls: [
        { _tool: 'getTime', zone: 'UTC' },
        { _tool: 'getWeather', city: 'Oslo', days: 'three', wind: true },
      ],
      output: null,
    });
    expect(issueLines(repair)).toEqual([
      '/calls/1: must NOT have additional properties: "wind"',
      '/calls/1/days: must be integer',
    ]);
  });

  it('an unknown tool: the repair names the tool the model wrote and the known tools', async () => {
    const { repair } = await repairAfter({
      calls: [
        { _tool: 'getTime', zone: 'UTC' },
        { _tool: 'search', query: 'x' },
        { _tool: 'getWether', city: 'Oslo' },
      ],
      output: null,
    });
    expect(issueLines(repair)).toEqual([
      '/calls/2/_tool: unknown tool "getWether"; known tools: getWeather, getTime, search',
    ]);
    expect(repair).not.toContain('must be equal to constant');
  });

  it('when repairs run out, InvalidSolutionError names the unknown tool and the known tools too', async () => {
    const provider = new ScriptedProvider(
      [{ calls: [{ _tool: 'getWether', city: 'Oslo' }], output: null }],
      { validate: false },
    );
    let caught: unknown;
    try {
      await request(
        {
          context: [{ type: 'text', text: 'Weather?' }],
          schema: buildVesselSchema([getWeather, getTime]),
        },
        { provider, maxRepairs: 0 },
      );
    } catch (error) {
      caught = error;
    }
    expect(InvalidSolutionError.isInstance(caught)).toBe(true);
    const error = caught as InvalidSolutionError;
    expect(error.code).toBe('INVALID_SOLUTION');
    expect(error.issues).toEqual([
      {
        path: '/calls/0/_tool',
        message: 'unknown tool "getWether"; known tools: getWeather, getTime',
      },
    ]);
    expect(error.message).toContain('unknown tool "getWether"');
    expect(error.message).not.toContain('must be equal to constant');
  });
});
