import 'reflect-metadata';
import { Container } from 'typedi';
import { Activity, createAgent, OfflineProvider, Service, Tool, type ToolSchema } from 'ideact';
import { IsString } from 'class-validator';

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
    const agent = createAgent({
      tools: [Shout],
      activities: [Shouter],
      provider: new OfflineProvider(),
    });
    const [result] = await agent.call({ _tool: 'shout', text: 'hi' }, []);
    expect(result).toMatchObject({ type: 'result', output: 'HI' });
    await agent.dispose();
    await agent.dispose();
    expect(disposed).toEqual(['shouter']);

    const other = createAgent({
      tools: [Shout],
      activities: [Shouter],
      provider: new OfflineProvider(),
    });
    await other.call({ _tool: 'shout', text: 'again' }, []);
    await other[Symbol.asyncDispose]();
    expect(disposed).toEqual(['shouter', 'shouter']);
  });
});
