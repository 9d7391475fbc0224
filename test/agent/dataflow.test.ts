import { Agent, Executor, Toolkit, type Call, type RunEvent, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { vessel } from './helpers';

/** A tool whose Activity waits `ms`, then returns `name` (and what it read); the model chooses `_outputPath`. */
const stepTool: ToolSchema = {
  type: 'object',
  description: 'A step of a plan.',
  properties: {
    _tool: { const: 'step' },
    name: { type: 'string' },
    ms: { type: 'number' },
    input: {},
    _outputPath: { type: 'string' },
  },
  required: ['_tool', 'name', 'ms'],
};

function dataflowAgent(calls: Call[], final: unknown = 'done') {
  const provider = new ScriptedProvider([vessel(calls), vessel([], final)]);
  const tools = [stepTool];
  const executor = new Executor({
    provider,
    tools,
    activities: [
      {
        step: async (params: Record<string, unknown>) => {
          await new Promise((resolve) => setTimeout(resolve, Number(params.ms)));
          if (params.name === 'fail') throw new RangeError('this step breaks');
          return { name: params.name, read: params.input ?? null };
        },
      },
    ],
  });
  const agent = new Agent({ provider, toolkit: new Toolkit({ tools }), executor });
  return { agent, provider };
}

async function callEvents(agent: Agent) {
  const events: RunEvent[] = [];
  const stream = agent.stream({ task: 'Run the plan.' });
  for await (const event of stream) {
    if (event.type === 'call-start' || event.type === 'call-end') events.push(event);
  }
  return { events, result: await stream.result };
}

/** `start:A`, `end:A`… in event order, by the `name` param of each Call. */
function timeline(events: RunEvent[], calls: Call[]): string[] {
  return events.map((event) => {
    const index = Number((event as { callId: string }).callId.split(':')[1]);
    return `${event.type === 'call-start' ? 'start' : 'end'}:${String(calls[index]?.name)}`;
  });
}

describe('dataflow Vessels (R-FLOW-1..4)', () => {
  it('R-FLOW-1 a reference nested in an array or object param waits for its producer too', async () => {
    const calls: Call[] = [
      { _tool: 'step', name: 'late', ms: 1, input: [{ from: ['†state.early'] }] },
      { _tool: 'step', name: 'early', ms: 40, _outputPath: '†state.early' },
    ];
    const { agent } = dataflowAgent(calls);
    const { events, result } = await callEvents(agent);
    expect(timeline(events, calls)).toEqual(['start:early', 'end:early', 'start:late', 'end:late']);
    const late = result.state.nodes.find(
      (node) => node.message.type === 'result' && node.message.call.name === 'late',
    );
    expect(late?.message).toMatchObject({
      output: { name: 'late', read: [{ from: [{ name: 'early', read: null }] }] },
    });
  });

  it('R-FLOW-1 a diamond runs A and E at once, then B and C in parallel, then D', async () => {
    const calls: Call[] = [
      { _tool: 'step', name: 'A', ms: 50, _outputPath: '†state.a' },
      { _tool: 'step', name: 'B', ms: 50, input: '†state.a', _outputPath: '†state.b' },
      { _tool: 'step', name: 'C', ms: 50, input: '†state.a', _outputPath: '†state.c' },
      { _tool: 'step', name: 'D', ms: 50, input: '†state.b && †state.c', _outputPath: '†state.d' },
      { _tool: 'step', name: 'E', ms: 120 },
    ];
    const { agent } = dataflowAgent(calls);
    const { events, result } = await callEvents(agent);
    expect(result.output).toBe('done');
    const order = timeline(events, calls);
    // A and E start together; B and C only after A ended; D only after both B and C ended.
    expect(order.slice(0, 2).sort()).toEqual(['start:A', 'start:E']);
    const at = (entry: string) => order.indexOf(entry);
    expect(at('start:B')).toBeGreaterThan(at('end:A'));
    expect(at('start:C')).toBeGreaterThan(at('end:A'));
    expect(at('start:B')).toBeLessThan(at('end:C'));
    expect(at('start:C')).toBeLessThan(at('end:B'));
    expect(at('start:D')).toBeGreaterThan(at('end:B'));
    expect(at('start:D')).toBeGreaterThan(at('end:C'));
    // E did not wait for anything: it ended before D started (E 120 ms < A + B 100 ms + D's start).
    expect(at('start:E')).toBeLessThan(at('end:A'));
    // D saw B's and C's outputs: `a && b` gives the last one (R-VAR-1).
    const dResult = result.state.nodes.find(
      (node) => node.message.type === 'result' && node.message.call.name === 'D',
    );
    expect(dResult?.message).toMatchObject({
      output: { name: 'D', read: { name: 'C', read: { name: 'A' } } },
    });
  });

  it('R-FLOW-3 a cycle fails its Calls with DependencyCycleError naming the chain; their dependants fail naming the failed Call', async () => {
    const calls: Call[] = [
      { _tool: 'step', name: 'X', ms: 1, input: '†state.y', _outputPath: '†state.x' },
      { _tool: 'step', name: 'Y', ms: 1, input: '†state.x', _outputPath: '†state.y' },
      { _tool: 'step', name: 'Z', ms: 1, input: '†state.x' },
      { _tool: 'step', name: 'free', ms: 1 },
    ];
    const { agent, provider } = dataflowAgent(calls);
    const { result } = await callEvents(agent);
    const codes = result.failedCalls.map((failed) => [failed.callId, failed.code]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['1:0', 'CALL_DEPENDENCY_CYCLE'],
        ['1:1', 'CALL_DEPENDENCY_CYCLE'],
        ['1:2', 'DEPENDENCY_FAILED'],
      ]),
    );
    expect(result.failedCalls.find((failed) => failed.callId === '1:0')?.message).toContain(
      '1:0 step → 1:1 step → 1:0 step',
    );
    expect(result.failedCalls.find((failed) => failed.callId === '1:2')?.message).toContain('1:0');
    // The free Call ran; the model sees the errors on its next turn (self-correction).
    expect(result.failedCalls.map((failed) => failed.callId)).not.toContain('1:3');
    const secondPrompt = provider.requests[1]!.messages.map((message) => message.content).join(
      '\n',
    );
    expect(secondPrompt).toContain('CALL_DEPENDENCY_CYCLE');
    expect(secondPrompt).toContain('DEPENDENCY_FAILED');
  });

  it('R-FLOW-4 a failed producer fails its dependant naming it; an || alternative that is present still runs', async () => {
    const calls: Call[] = [
      { _tool: 'step', name: 'fail', ms: 1, _outputPath: '†state.a' },
      { _tool: 'step', name: 'needsA', ms: 1, input: '†state.a' },
      { _tool: 'step', name: 'fallback', ms: 1, input: '†state.a || †input.city' },
    ];
    const { agent } = dataflowAgent(calls);
    const events: RunEvent[] = [];
    const stream = agent.stream({
      context: [{ type: 'input', input: { city: 'Oslo' } }],
    });
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.failedCalls.map((failed) => [failed.callId, failed.code])).toEqual([
      ['1:0', 'ACTIVITY_FAILED'],
      ['1:1', 'DEPENDENCY_FAILED'],
    ]);
    const fallback = result.state.nodes.find(
      (node) => node.message.type === 'result' && node.message.call.name === 'fallback',
    );
    expect(fallback?.message).toMatchObject({ output: { read: 'Oslo' } });
  });

  it('R-FLOW-2 a reference to a path no Call writes and that does not exist fails with UNRESOLVED_REFERENCE', async () => {
    const calls: Call[] = [{ _tool: 'step', name: 'lost', ms: 1, input: '†state.nowhere' }];
    const { agent } = dataflowAgent(calls);
    const result = await agent.run({ task: 'x' });
    expect(result.failedCalls).toEqual([
      expect.objectContaining({ callId: '1:0', code: 'UNRESOLVED_REFERENCE' }),
    ]);
  });
});

describe('plan mode (R-FLOW-5)', () => {
  it("planMode 'lazy' stops with reason 'planned' and the plan as written; nothing runs until executePlan", async () => {
    const calls: Call[] = [
      { _tool: 'step', name: 'A', ms: 1, _outputPath: '†state.a' },
      { _tool: 'step', name: 'B', ms: 1, input: '†state.a' },
    ];
    const { agent, provider } = dataflowAgent(calls);
    const planned = await agent.run({ task: 'Plan it.', planMode: 'lazy' });
    expect(planned.stopReason).toBe('planned');
    expect(planned.plan).toEqual([
      { callId: '1:0', call: calls[0] },
      { callId: '1:1', call: calls[1] },
    ]);
    expect(planned.state.nodes.filter((node) => node.message.type === 'result')).toHaveLength(0);
    expect(provider.requests).toHaveLength(1);

    const executed = await agent.executePlan(planned, {
      decisions: [{ approve: true }, { edit: { ...calls[1]!, name: 'B2' } }],
    });
    expect(executed.stopReason).toBe('output');
    const names = executed.state.nodes
      .filter((node) => node.message.type === 'result')
      .map((node) => (node.message as { output: { name: string } }).output.name);
    expect(names).toEqual(['A', 'B2']);
  });

  it('executePlan on a run that did not stop planned is a typed error', async () => {
    const { agent } = dataflowAgent([]);
    const result = await agent.run({ task: 'x' });
    await expect(agent.executePlan(result)).rejects.toMatchObject({ code: 'INVALID_AGENT_STATE' });
  });
});
