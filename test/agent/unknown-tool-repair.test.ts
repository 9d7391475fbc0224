import {
  InvalidSolutionError,
  buildVesselSchema,
  createAgent,
  request,
  type PlanMode,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * Issue 27 item 5 (R-REQ-3): a Call naming an unknown tool is repaired with one line naming the tool
 * the model wrote and the known tools, for one Tool (ajv reports a `const` mismatch in a one-branch
 * `anyOf`) as for several, with the Calls run as they come (eager) or planned (plan mode `lazy`); the
 * other mistakes of that Call do not drown it.
 */

function tool(name: string): ToolSchema {
  return {
    type: 'object',
    description: `The ${name} tool.`,
    properties: { _tool: { const: name }, n: { type: 'integer' } },
    required: ['_tool', 'n'],
  };
}

const toolSets: Array<[string, string[]]> = [
  ['one tool', ['count']],
  ['three tools', ['count', 'add', 'sub']],
];
/** How the Vessel's Calls run: planned (lazy), as the model writes them (eager, streamed), or after it. */
const shapes: Array<{ name: string; planMode: PlanMode; chunkSize?: number; started: boolean }> = [
  { name: 'eager, the reply in one piece', planMode: 'eager', started: false },
  {
    name: 'eager, streamed: the valid Call started before the reply was checked',
    planMode: 'eager',
    chunkSize: 8,
    started: true,
  },
  { name: 'plan mode lazy', planMode: 'lazy', chunkSize: 8, started: false },
];

describe.each(toolSets)('an unknown tool with %s (issue 27 item 5)', (_label, names) => {
  const known = names.join(', ');
  const line = `/calls/1/_tool: unknown tool "zorblax"; known tools: ${known}`;

  it.each(shapes)(
    '$name: the repair says which tool was written and which exist, in one line',
    async ({ planMode, chunkSize, started }) => {
      // A valid Call first, then the unknown one (with a wrong param and an extra key of its own).
      const invalid = {
        calls: [
          { _tool: 'count', n: 1 },
          { _tool: 'zorblax', n: 'many', colour: 'red' },
        ],
        output: null,
      };
      const repaired = { calls: [{ _tool: 'count', n: 2 }], output: null };
      const ran: unknown[] = [];
      const provider = new ScriptedProvider([invalid, repaired, { calls: [], output: 'ok' }], {
        validate: false,
        ...(chunkSize === undefined ? {} : { stream: { chunkSize } }),
      });
      const agent = createAgent({
        tools: names.map(tool),
        activities: [
          Object.fromEntries(names.map((name) => [name, (params: unknown) => ran.push(params)])),
        ],
        provider,
        planMode,
      });
      const result = await agent.run({ task: 'Count to two.' });

      const last = provider.requests[1]!.messages.at(-1)!;
      if (started) {
        // R-REQ-3 through the loop: the Call that started is kept; the next turn shows its result and
        // the InvalidSolutionError, whose issue is that one line
        expect(ran).toEqual([{ n: 1 }, { n: 2 }]);
        expect(last.role).toBe('user');
        expect(last.content).toContain('Error INVALID_SOLUTION:');
        expect(last.content).toContain(`\n${line}\nUse a more capable model`);
      } else {
        // R-REQ-3 in the request: the reply goes back with the repair prompt
        expect(provider.requests[1]!.messages.at(-2)).toEqual({
          role: 'assistant',
          content: JSON.stringify(invalid),
        });
        expect(last).toEqual({
          role: 'user',
          content: [
            'Your previous reply is not a valid solution for the JSON Schema "vessel":',
            line,
            'Reply again with the complete corrected JSON only, keeping everything that was right.',
          ].join('\n'),
        });
      }
      expect(last.content).not.toContain('must be equal to constant');
      expect(last.content).not.toContain('anyOf');
      expect(last.content).not.toContain('colour');
      if (planMode === 'lazy') {
        expect(result.stopReason).toBe('planned');
        expect(result.plan?.map((entry) => entry.call)).toEqual([{ _tool: 'count', n: 2 }]);
        expect(ran).toEqual([]);
      } else {
        expect(result.output).toBe('ok');
        expect(ran.at(-1)).toEqual({ n: 2 });
      }
    },
  );

  it('when repairs run out, InvalidSolutionError shows the same line', async () => {
    const provider = new ScriptedProvider([{ calls: [{ _tool: 'zorblax', n: 1 }], output: null }], {
      validate: false,
    });
    let caught: unknown;
    try {
      await request(
        { context: [{ type: 'text', text: 'Count.' }], schema: buildVesselSchema(names.map(tool)) },
        { provider, maxRepairs: 0 },
      );
    } catch (error) {
      caught = error;
    }
    expect(InvalidSolutionError.isInstance(caught)).toBe(true);
    const error = caught as InvalidSolutionError;
    expect(error.issues).toEqual([
      { path: '/calls/0/_tool', message: `unknown tool "zorblax"; known tools: ${known}` },
    ]);
    expect(error.message).toContain(
      `/calls/0/_tool: unknown tool "zorblax"; known tools: ${known}\n`,
    );
    expect(error.message).not.toContain('must be equal to constant');
    expect(error.message).not.toContain('anyOf');
  });
});
