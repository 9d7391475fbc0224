import 'reflect-metadata';
import { Container } from 'typedi';
import { Activity, createAgent, OfflineProvider, Service, Tool, type ToolSchema } from 'ideact';
import { IsString } from 'class-validator';
import { ScriptedProvider } from 'ideact/testing';

/** Issue 16 item 1 (part): createAgent leaves nothing behind; agent.dispose() releases its container. */
const echo: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'echo' }, text: { type: 'string' } },
  required: ['_tool', 'text'],
};

/** typedi's global list of containers (the leak this guards against grew by one per agent). */
function registeredContainers(): number {
  return (Container as unknown as { instances: unknown[] }).instances.length;
}

describe('agents own their container', () => {
  it('creating 200 agents registers no container globally', () => {
    const before = registeredContainers();
    for (let index = 0; index < 200; index++)
      createAgent({
        tools: [echo],
        activities: [{ echo: () => 'ok' }],
        provider: new OfflineProvider(),
      });
    expect(registeredContainers()).toBe(before);
  });

  it('dispose() (and await using) drops the Activity service instances; it is idempotent', async () => {
    const disposed: string[] = [];
    @Tool()
    @Activity('shout')
    class Shout {
      @IsString() text!: string;
    }
    @Service()
    class Shouter {
      @Activity('shout')
      shout(params: Shout) {
        return params.text.toUpperCase();
      }
      /** typedi calls `destroy()` on a service instance when its container is reset. */
      destroy() {
        disposed.push('shouter');
      }
    }
    const shoutOnce = () =>
      new ScriptedProvider([
        { calls: [{ _tool: 'shout', text: 'hi' }], output: null },
        { calls: [], output: 'done' },
      ]);
    const agent = createAgent({ tools: [Shout], activities: [Shouter], provider: shoutOnce() });
    const result = await agent.run({ task: 'shout', maxTurns: 3 });
    expect(result.failedCalls).toEqual([]);
    expect(JSON.stringify(result.state)).toContain('"HI"');
    expect(disposed).toEqual([]);
    await agent.dispose();
    await agent.dispose();
    expect(disposed).toEqual(['shouter']);

    const other = createAgent({ tools: [Shout], activities: [Shouter], provider: shoutOnce() });
    await other.run({ task: 'shout', maxTurns: 3 });
    await other[Symbol.asyncDispose]();
    expect(disposed).toEqual(['shouter', 'shouter']);
  });
});
