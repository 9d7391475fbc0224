import { Agent, Executor, Toolkit, type Call, type RunEvent, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { promptText, vessel } from './helpers';

const transferTool: ToolSchema = {
  type: 'object',
  description: 'Moves money.',
  needsApproval: true,
  properties: { _tool: { const: 'transfer' }, amount: { type: 'number' } },
  required: ['_tool', 'amount'],
};
const lookupTool: ToolSchema = {
  type: 'object',
  description: 'Reads a balance.',
  properties: { _tool: { const: 'lookup' }, account: { type: 'string' } },
  required: ['_tool', 'account'],
};

function bank(script: ConstructorParameters<typeof ScriptedProvider>[0], config = {}) {
  const provider = new ScriptedProvider(script);
  const tools = [transferTool, lookupTool];
  const executed: string[] = [];
  const executor = new Executor({
    provider,
    tools,
    activities: [
      {
        transfer: (params: Record<string, unknown>) => {
          executed.push(`transfer ${String(params.amount)}`);
          return { done: true, amount: params.amount };
        },
        lookup: (params: Record<string, unknown>) => {
          executed.push(`lookup ${String(params.account)}`);
          return { balance: 100 };
        },
      },
    ],
  });
  const agent = new Agent({ provider, toolkit: new Toolkit({ tools }), executor }, config);
  return { agent, provider, executed };
}

const plan: Call[] = [
  { _tool: 'transfer', amount: 50, _reasoningForCall: 'the user asked to pay rent' },
  { _tool: 'lookup', account: 'main' },
];

describe('approvals as interruptions (issue 18 item 3)', () => {
  it('a Tool with needsApproval stops the run awaiting_approval with interruptions; the other Calls run', async () => {
    const { agent, executed } = bank([vessel(plan), vessel([], 'paid')]);
    const events: RunEvent[] = [];
    const stream = agent.stream({ task: 'Pay the rent.' });
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.stopReason).toBe('awaiting_approval');
    expect(result.interruptions).toEqual([
      {
        callId: '1:0',
        tool: 'transfer',
        params: { amount: 50 },
        reasoning: 'the user asked to pay rent',
      },
    ]);
    expect(executed).toEqual(['lookup main']);
    expect(events.find((event) => event.type === 'approval-requested')).toMatchObject({
      calls: [{ callId: '1:0', tool: 'transfer', params: { amount: 50 } }],
    });

    // The decision, later, by run id (no store: this process keeps the unfinished run).
    const resumed = await agent.resume(result.runId, { decisions: { '1:0': { approve: true } } });
    expect(resumed.stopReason).toBe('output');
    expect(resumed.output).toBe('paid');
    expect(resumed.runId).toBe(result.runId);
    expect(executed).toEqual(['lookup main', 'transfer 50']);
  });

  it('a rejection becomes a CALL_REJECTED result the model sees; an edit runs with the new params', async () => {
    const rejected = bank([vessel(plan), vessel([], 'not paid')]);
    const first = await rejected.agent.run({ task: 'Pay.' });
    const after = await rejected.agent.resume(first.runId, {
      decisions: { '1:0': { reject: 'over the limit' } },
    });
    expect(after.output).toBe('not paid');
    expect(rejected.executed).toEqual(['lookup main']);
    expect(promptText(rejected.provider, 1)).toContain('CALL_REJECTED');
    expect(promptText(rejected.provider, 1)).toContain('over the limit');

    const edited = bank([vessel(plan), vessel([], 'paid less')]);
    const planned = await edited.agent.run({ task: 'Pay.' });
    await edited.agent.resume(planned.runId, { decisions: { '1:0': { edit: { amount: 20 } } } });
    expect(edited.executed).toEqual(['lookup main', 'transfer 20']);
  });

  it('the needsApproval predicate holds Calls of any tool; a confirm hook decides in-process instead', async () => {
    const held = bank([vessel(plan), vessel([], 'ok')], {
      needsApproval: (call: Call) => call._tool === 'lookup',
    });
    const stopped = await held.agent.run({ task: 'x' });
    expect(stopped.interruptions?.map((interruption) => interruption.callId)).toEqual([
      '1:0',
      '1:1',
    ]);
    expect(held.executed).toEqual([]);

    const confirmed = bank([vessel(plan), vessel([], 'ok')], {
      confirm: (calls: Call[]) => calls.map(() => ({ approve: true as const })),
    });
    const result = await confirmed.agent.run({ task: 'x' });
    expect(result.stopReason).toBe('output');
    expect(confirmed.executed.sort()).toEqual(['lookup main', 'transfer 50']);
  });

  it('asks the needsApproval predicate once per Call, whether it holds the Call or lets it run', async () => {
    const asked: string[] = [];
    const lookups: Call[] = [
      { _tool: 'lookup', account: 'main' },
      { _tool: 'lookup', account: 'savings' },
    ];
    const run = bank([vessel(lookups), vessel([], 'ok')], {
      needsApproval: (call: Call) => {
        asked.push(String(call.account));
        return call.account === 'savings';
      },
    });
    const stopped = await run.agent.run({ task: 'x' });
    expect(stopped.stopReason).toBe('awaiting_approval');
    expect(stopped.interruptions?.map((interruption) => interruption.callId)).toEqual(['1:1']);
    expect(run.executed).toEqual(['lookup main']);
    expect(asked.sort()).toEqual(['main', 'savings']);
  });

  it('a decision for a Call that does not await approval is a typed error naming the awaiting ones', async () => {
    const { agent } = bank([vessel(plan)]);
    const stopped = await agent.run({ task: 'x' });
    await expect(
      agent.resume(stopped.runId, { decisions: { '9:9': { approve: true } } }),
    ).rejects.toMatchObject({
      code: 'INVALID_CONFIRMATION',
      source: 'decisions',
      message: expect.stringContaining('1:0'),
    });
    // Issue 27 item 11: the error speaks of the decisions given, not of a confirm hook.
    const error = (await agent
      .resume(stopped.runId, { decisions: { '9:9': { approve: true } } })
      .catch((thrown: unknown) => thrown)) as Error;
    expect(error.message).toMatch(/^The approval decisions cannot be applied: no Call "9:9"/);
    expect(error.message).not.toContain('confirm hook');
  });

  it('an unknown run id is RUN_NOT_FOUND', async () => {
    const { agent } = bank([]);
    await expect(agent.resume('run_doesnotexist')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });
});

describe('@Tool({ needsApproval })', () => {
  it('puts needsApproval: true on the tool schema (and leaves it off otherwise)', async () => {
    const { Tool, toolSchema } = await import('ideact');
    @Tool({ needsApproval: true, description: 'Deletes a file.' })
    class DeleteFile {}
    @Tool()
    class ReadFile {}
    expect(toolSchema(DeleteFile)).toMatchObject({ needsApproval: true });
    expect(toolSchema(ReadFile)).not.toHaveProperty('needsApproval');
  });
});
