import { createAgent, type ProviderRequest } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  collect,
  makeRunModuleRoot,
  nestedScript,
  ofType,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
} from './run-fixtures';

/**
 * Issue 20 item 2: `request-start` carries the rendered messages exactly as the provider received
 * them, only when the run opts in (`events: { messages: true }`), for every request of the run tree.
 */
let root: string;
beforeAll(async () => {
  root = await makeRunModuleRoot();
});
afterAll(async () => {
  await removeRunModuleRoot(root);
});

function agentRecording(received: ProviderRequest[]): ReturnType<typeof createAgent> {
  return createAgent({
    tools: [summarizeTool, plannerTool],
    activities: [sunny],
    provider: new ScriptedProvider((request: ProviderRequest) => {
      received.push(request);
      return nestedScript(request);
    }),
    moduleRoot: root,
    actorConcurrency: 1,
  });
}

describe('request-start messages (opt-in)', () => {
  it('are absent by default', async () => {
    const stream = agentRecording([]).stream({ task: 'Summarize and plan' });
    const starts = ofType(await collect(stream), 'request-start');
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) expect(start).not.toHaveProperty('messages');
  });

  it('equal what the provider received, for the root run, a module sub-request and a nested agent', async () => {
    const received: ProviderRequest[] = [];
    const stream = agentRecording(received).stream({
      task: 'Summarize and plan',
      events: { messages: true },
    });
    const starts = ofType(await collect(stream), 'request-start');
    expect((await stream.result).output).toBe('done');
    expect(starts).toHaveLength(received.length);
    // One request per depth at least: root (path 1), module sub-request (2), nested agent (3).
    expect(new Set(starts.map((start) => start.path.length))).toEqual(new Set([1, 2, 3]));
    starts.forEach((start, index) => {
      expect(start.messages).toEqual(
        received[index]!.messages.map(({ role, content }) => ({ role, content })),
      );
    });
    const moduleStart = starts.find((start) => start.path.length === 2)!;
    expect(moduleStart.messages![0]).toEqual({ role: 'system', content: 'You are summarizer.' });
    // Plain JSON: the event round-trips.
    expect(JSON.parse(JSON.stringify(moduleStart))).toEqual(moduleStart);
  });
});
