import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ActivityFailedError,
  CallFailedError,
  createAgent,
  loadState,
  type ProviderRequest,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** Issue 14 item 9: a failed Call is never invisible (R-CALL-5 stays the default). */
const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

/** An Activity with a bug: reads a property of undefined for Oslo. */
function buggyWeather(params: Record<string, unknown>): unknown {
  const table: Record<string, { tempC: number }> = { Bergen: { tempC: 9 } };
  return { city: params.city, tempC: table[String(params.city)]!.tempC };
}

function promptOf(request: ProviderRequest | undefined): string {
  return (request?.messages ?? []).map((message) => message.content).join('\n');
}

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-failed-calls-'));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

describe("activityErrors: 'feed' (default)", () => {
  it('R-CALL-5 a TypeError in an Activity is fed to the model and listed in result.failedCalls with its stack', async () => {
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
      { calls: [], output: 'no data for Oslo' },
    ]);
    const agent = createAgent({
      tools: [weatherTool],
      activities: [{ weather: buggyWeather }],
      provider,
    });
    const result = await agent.run({ task: 'Weather in Oslo?' });
    expect(result.stopReason).toBe('output');
    expect(result.error).toBeUndefined();
    expect(promptOf(provider.requests[1])).toContain('ACTIVITY_FAILED');
    expect(result.failedCalls).toHaveLength(1);
    const [failed] = result.failedCalls;
    expect(failed).toMatchObject({ callId: '1:0', tool: 'weather', code: 'ACTIVITY_FAILED' });
    expect(failed!.message).toContain('Activity "weather" of tool "weather" failed');
    expect(failed!.stack).toMatch(/^TypeError: /);
    expect(failed!.stack).toContain('buggyWeather');
    expect(failed!.chain).toBeUndefined();
  });

  it('lists failures that are ideact errors too (no stack), and nothing when every Call succeeded', async () => {
    const agent = createAgent({
      tools: [weatherTool],
      activities: [
        {
          weather: (params) => {
            if (params.city === 'Atlantis') {
              throw new CallFailedError({ toolName: 'weather', cause: 'no such city' });
            }
            return { tempC: 3 };
          },
        },
      ],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Atlantis' }], output: null },
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
        { calls: [], output: 'done' },
      ]),
    });
    const result = await agent.run({ task: 'Weather?' });
    expect(result.failedCalls).toEqual([
      expect.objectContaining({ callId: '1:0', tool: 'weather', code: 'CALL_FAILED' }),
    ]);
    expect(result.failedCalls[0]!.stack).toBeUndefined();

    const clean = createAgent({
      tools: [weatherTool],
      activities: [{ weather: () => ({ tempC: 3 }) }],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
        { calls: [], output: 'done' },
      ]),
    });
    expect((await clean.run({ task: 'Weather?' })).failedCalls).toEqual([]);
  });
});

describe("activityErrors: 'throw'", () => {
  it("a TypeError in an Activity ends the run with stop reason 'error' and an ActivityFailedError whose cause is the original; the state is saved", async () => {
    const stateFile = path.join(directory, 'run.json');
    const ran: string[] = [];
    const provider = new ScriptedProvider([
      {
        calls: [
          { _tool: 'weather', city: 'Oslo' },
          { _tool: 'weather', city: 'Bergen' },
        ],
        output: null,
      },
    ]);
    const agent = createAgent({
      tools: [weatherTool],
      activities: [
        {
          weather: (params) => {
            ran.push(String(params.city));
            return buggyWeather(params);
          },
        },
      ],
      provider,
      activityErrors: 'throw',
      actorConcurrency: 1,
    });
    const result = await agent.run({ task: 'Weather in Norway?', stateFile });
    expect(result.stopReason).toBe('error');
    expect(ActivityFailedError.isInstance(result.error)).toBe(true);
    expect(result.error!.code).toBe('ACTIVITY_FAILED');
    expect(result.error!.toolName).toBe('weather');
    expect(result.error!.cause).toBeInstanceOf(TypeError);
    // The run ended: the model was not asked again, the Call not started yet did not run.
    expect(provider.requests).toHaveLength(1);
    expect(ran).toEqual(['Oslo']);
    expect(result.failedCalls).toEqual([
      expect.objectContaining({ callId: '1:0', tool: 'weather', code: 'ACTIVITY_FAILED' }),
    ]);
    expect(result.failedCalls[0]!.stack).toMatch(/^TypeError: /);
    const saved = await loadState(stateFile);
    expect(saved.nextStep).toMatchObject({
      module: 'done',
      args: { reason: 'error', error: { code: 'ACTIVITY_FAILED' }, pending: { module: 'actor' } },
    });
  });

  it('an ideact error thrown by an Activity is still fed to the model (it is not a bug)', async () => {
    const agent = createAgent({
      tools: [weatherTool],
      activities: [
        {
          weather: () => {
            throw new CallFailedError({ toolName: 'weather', cause: 'service down' });
          },
        },
      ],
      provider: new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
        { calls: [], output: 'unknown' },
      ]),
      activityErrors: 'throw',
    });
    const result = await agent.run({ task: 'Weather?' });
    expect(result.stopReason).toBe('output');
    expect(result.error).toBeUndefined();
    expect(result.failedCalls.map((failed) => failed.code)).toEqual(['CALL_FAILED']);
  });
});

describe('failed Calls of nested agents (R-MOD-5)', () => {
  /** A module Idea whose agent may call `weather`. */
  const helperIdea = {
    name: 'helper',
    context: [
      { type: 'system', text: 'You are helper.' },
      {
        type: 'input',
        input: { city: 'x' },
        schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ],
    schema: {
      type: 'object',
      properties: {
        calls: { type: 'array', items: { anyOf: [weatherTool] } },
        output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['calls', 'output'],
      additionalProperties: false,
    },
  };
  const helperTool: ToolSchema = {
    type: 'object',
    properties: {
      _tool: { const: 'helper' },
      _module: { const: 'helper.json' },
      city: { type: 'string' },
    },
    required: ['_tool', 'city'],
  };

  /** Top agent: call the helper, then answer. Helper: call weather, then answer. */
  function script(request: ProviderRequest): unknown {
    const prompt = promptOf(request);
    const isHelper = prompt.includes('You are helper.');
    if (!prompt.includes('## Result of')) {
      return isHelper
        ? { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null }
        : { calls: [{ _tool: 'helper', city: 'Oslo' }], output: null };
    }
    return { calls: [], output: isHelper ? 'helper gave up' : 'top done' };
  }

  beforeEach(async () => {
    await fs.writeFile(path.join(directory, 'helper.json'), JSON.stringify(helperIdea));
  });

  it('feed: the nested failure is listed with its module chain and a callId under the module Call', async () => {
    const agent = createAgent({
      tools: [helperTool],
      activities: [{ weather: buggyWeather }],
      provider: new ScriptedProvider(script),
      moduleRoot: directory,
    });
    const result = await agent.run({ task: 'Weather in Oslo?' });
    expect(result.stopReason).toBe('output');
    expect(result.failedCalls).toHaveLength(1);
    const [failed] = result.failedCalls;
    expect(failed!.callId).toMatch(/^1:0\/\d+:0$/);
    expect(failed!.tool).toBe('weather');
    expect(failed!.code).toBe('ACTIVITY_FAILED');
    expect(failed!.chain).toEqual([expect.stringContaining('helper.json')]);
    expect(failed!.stack).toMatch(/^TypeError: /);
  });

  it("throw: the nested agent's Activity bug ends the top-level run too", async () => {
    const provider = new ScriptedProvider(script);
    const agent = createAgent({
      tools: [helperTool],
      activities: [{ weather: buggyWeather }],
      provider,
      moduleRoot: directory,
      activityErrors: 'throw',
    });
    const result = await agent.run({ task: 'Weather in Oslo?' });
    expect(result.stopReason).toBe('error');
    expect(ActivityFailedError.isInstance(result.error)).toBe(true);
    expect(result.error!.cause).toBeInstanceOf(TypeError);
    expect(provider.requests).toHaveLength(2); // top turn 1, helper turn 1; nobody was asked again
    expect(result.failedCalls.map((failed) => [failed.tool, failed.code])).toEqual([
      ['weather', 'ACTIVITY_FAILED'],
      ['helper', 'ACTIVITY_FAILED'],
    ]);
  });
});
