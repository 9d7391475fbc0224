import { createAgent, type OutputDeltaEvent, type RunEvent, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { growsMonotonically, isPrefixValue } from '../support/growing-value';

/**
 * Issue 32 item 3: `output-delta` events carry the Vessel's output and each Call's params as partial
 * values that grow with the model's text, for observed runs only, and end equal to the final values.
 */
const lookupTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'lookup' },
    query: { type: 'string' },
    limit: { type: 'integer' },
  },
  required: ['_tool', 'query', 'limit'],
};

const finalOutput = {
  title: 'A report on "partial" values',
  points: ['first point', 'second, longer point'],
  score: 1234.5,
  done: true,
};

function agent(chunkSize: number) {
  return createAgent({
    tools: [lookupTool],
    activities: [{ lookup: (params: Record<string, unknown>) => ({ hits: [params.query] }) }],
    provider: new ScriptedProvider(
      [
        {
          calls: [
            {
              _tool: 'lookup',
              _reasoningForCall: 'I need facts.',
              query: 'growing values',
              limit: 25,
            },
          ],
          output: null,
        },
        { calls: [], output: finalOutput },
      ],
      { stream: { chunkSize } },
    ),
  });
}

const outputSchema = {
  type: 'object' as const,
  properties: {
    title: { type: 'string' },
    points: { type: 'array', items: { type: 'string' } },
    score: { type: 'number' },
    done: { type: 'boolean' },
  },
  required: ['title', 'points', 'score', 'done'],
};

describe('output-delta events (issue 32 item 3)', () => {
  it.each([1, 3, 7])(
    'grow monotonically (each a prefix-consistent partial value) and end equal to the final output and params (%i characters per delta)',
    async (chunkSize) => {
      const stream = agent(chunkSize).stream({ task: 'report', output: outputSchema });
      const events: RunEvent[] = [];
      for await (const event of stream) events.push(event);
      const result = await stream.result;
      expect(result.output).toEqual(finalOutput);

      const deltas = events.filter(
        (event): event is OutputDeltaEvent => event.type === 'output-delta',
      );
      const outputs = deltas.filter((event) => event.part === 'output').map((event) => event.value);
      expect(outputs.length).toBeGreaterThan(chunkSize === 1 ? 20 : 3);
      expect(growsMonotonically(outputs)).toBe(true);
      expect(outputs[outputs.length - 1]).toEqual(result.output);
      // Numbers and booleans are never shown half-written.
      for (const value of outputs) {
        const record = value as Record<string, unknown>;
        if ('score' in record) expect(record.score).toBe(1234.5);
        if ('done' in record) expect(record.done).toBe(true);
      }

      const params = deltas.filter((event) => event.part === 'params');
      expect(params.every((event) => event.callIndex === 0)).toBe(true);
      expect(growsMonotonically(params.map((event) => event.value))).toBe(true);
      expect(params[params.length - 1]).toMatchObject({
        tool: 'lookup',
        reasoning: 'I need facts.',
        value: { query: 'growing values', limit: 25 },
      });
      // The reasoning grows as a string, and the `_` meta-fields stay out of the params.
      expect(growsMonotonically(params.flatMap((event) => event.reasoning ?? []))).toBe(true);
      expect(
        params.every(
          (event) => !Object.keys(event.value as object).some((key) => key.startsWith('_')),
        ),
      ).toBe(true);
      // Each delta belongs to a Generator request of the root run and follows its request-start.
      const started = new Set<string>();
      for (const event of events) {
        if (event.type === 'request-start') started.add(event.requestId);
        if (event.type === 'output-delta') expect(started.has(event.requestId)).toBe(true);
      }
      // The request ids stay unique within the run (the tap shares the run's numbering).
      const ids = events.filter((event) => event.type === 'request-start').map((e) => e.requestId);
      expect(new Set(ids).size).toBe(ids.length);
    },
  );

  it('are not built for a run whose reader does not want deltas', async () => {
    const run = agent(3).start({ task: 'report', output: outputSchema });
    const events: RunEvent[] = [];
    run.subscribe((event) => events.push(event), { deltas: false });
    await run.result();
    expect(events.some((event) => event.type === 'run-end')).toBe(true);
    expect(events.filter((event) => event.type === 'output-delta')).toEqual([]);
  });

  it('the prefix check itself rejects a value that changed its past (so the test above can fail)', () => {
    expect(isPrefixValue({ a: 'ab' }, { a: 'abc' })).toBe(true);
    expect(isPrefixValue({ a: 12 }, { a: 123 })).toBe(false);
    expect(isPrefixValue(['x', 'y'], ['x', 'yz', 'w'])).toBe(true);
    expect(isPrefixValue(['x', 'y'], ['z', 'y'])).toBe(false);
    expect(isPrefixValue({ b: 1, a: 'x' }, { a: 'x', b: 1 })).toBe(false);
  });
});
