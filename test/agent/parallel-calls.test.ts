import { createAgent, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** Issue 16 item 9: every Call of one Vessel runs at once unless the user caps it (R-CALL-4). */
const waitTool: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'wait' }, index: { type: 'integer' } },
  required: ['_tool', 'index'],
};

async function maxInFlight(calls: number, actorConcurrency?: number): Promise<number> {
  let active = 0;
  let most = 0;
  const wait = async (): Promise<{ done: true }> => {
    active += 1;
    most = Math.max(most, active);
    await new Promise((resolve) => setTimeout(resolve, 5));
    active -= 1;
    return { done: true };
  };
  const provider = new ScriptedProvider([
    {
      calls: Array.from({ length: calls }, (_, index) => ({ _tool: 'wait', index })),
      output: null,
    },
    { calls: [], output: 'waited' },
  ]);
  const agent = createAgent({
    tools: [waitTool],
    activities: [{ wait }],
    provider,
    ...(actorConcurrency === undefined ? {} : { actorConcurrency }),
  });
  const result = await agent.run({ task: 'wait', maxTurns: 3 });
  expect(result.stopReason).toBe('output');
  expect(result.failedCalls).toEqual([]);
  return most;
}

describe('parallel Calls by default (R-CALL-4)', () => {
  it('runs all 100 Calls of one Vessel at the same time when no cap is set', async () => {
    expect(await maxInFlight(100)).toBe(100);
  });

  it('honours actorConcurrency as a cap', async () => {
    expect(await maxInFlight(20, 3)).toBe(3);
  });
});
