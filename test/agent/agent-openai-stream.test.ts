import { createAgent, OpenAIProvider, type Agent, type RunEvent } from 'ideact';
import { serversForThisFile, type ChatCompletionsServer } from '../support/chat-completions-server';
import { ofType, sunny, weatherTool } from './run-fixtures';

/**
 * Issue 16 items 3-5 end to end: an agent on OpenAIProvider streams from a local Chat Completions
 * server (SSE with usage): partial solutions, the server's usage per request, and abort mid-stream.
 */
const serve = serversForThisFile();

function openAIAgent(server: ChatCompletionsServer): Agent {
  return createAgent({
    tools: [weatherTool],
    activities: [sunny],
    provider: new OpenAIProvider({
      apiKey: 'sk-test',
      baseURL: server.baseURL,
      model: 'test-model',
      maxRetries: 0,
      env: {},
    }),
  });
}

const firstSolution = { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null };
const lastSolution = { calls: [], output: 'Oslo: sun' };

describe('an agent streaming from OpenAI (SSE, issue 16 item 4)', () => {
  it('yields growing partial solutions, request-end with the server’s usage and finish reasons, and a valid result', async () => {
    const server = await serve([
      {
        json: firstSolution,
        chunkSize: 5,
        usage: { promptTokens: 40, completionTokens: 12, cachedTokens: 8 },
      },
      { json: lastSolution, chunkSize: 5, usage: { promptTokens: 70, completionTokens: 9 } },
    ]);
    const stream = openAIAgent(server).stream({ task: 'Weather in Oslo?' });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;

    expect(result.stopReason).toBe('output');
    expect(result.output).toBe('Oslo: sun');
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.body).toMatchObject({
        model: 'test-model',
        stream: true,
        stream_options: { include_usage: true },
      });
    }

    const [first, second] = ofType(events, 'request-start');
    const deltas = ofType(events, 'solution-delta').filter(
      (event) => event.requestId === first!.requestId,
    );
    const text = JSON.stringify(firstSolution);
    expect(deltas).toHaveLength(Math.ceil(text.length / 5));
    expect(deltas.map((event) => event.delta).join('')).toBe(text);
    // The partial solution grows with each delta and ends as the whole solution.
    const sizes = deltas.map((event) => JSON.stringify(event.partial ?? null).length);
    for (let index = 1; index < sizes.length; index++) {
      expect(sizes[index]).toBeGreaterThanOrEqual(sizes[index - 1]!);
    }
    expect(new Set(sizes).size).toBeGreaterThan(3);
    expect(deltas[deltas.length - 1]!.partial).toEqual(firstSolution);
    expect(deltas.some((event) => JSON.stringify(event.partial).includes('"Oslo"'))).toBe(true);

    const ends = ofType(events, 'request-end');
    expect(ends.map((end) => end.requestId)).toEqual([first!.requestId, second!.requestId]);
    expect(ends[0]).toMatchObject({
      model: 'test-model',
      usage: { inputTokens: 40, outputTokens: 12, cachedTokens: 8 },
      finishReasons: ['stop'],
    });
    expect(ends[0]!.error).toBeUndefined();
    expect(ends[1]).toMatchObject({
      usage: { inputTokens: 70, outputTokens: 9, cachedTokens: 0 },
      finishReasons: ['stop'],
    });
    expect(result.usage).toMatchObject({ inputTokens: 110, outputTokens: 21, cachedTokens: 8 });
    expect(result.usage.byModel).toEqual({
      'test-model': { inputTokens: 110, outputTokens: 21, cachedTokens: 8 },
    });
    expect(ofType(events, 'call-end')).toEqual([
      expect.objectContaining({ tool: 'weather', output: { city: 'Oslo', sky: 'sun' } }),
    ]);
    // The Call was complete before the stream was: it started before the request ended.
    const callStart = events.findIndex((event) => event.type === 'call-start');
    expect(callStart).toBeLessThan(events.indexOf(ends[0]!));
    expect(events[callStart]).toMatchObject({ eager: true });
  });

  it('stream.abort() mid-stream ends the run with stop reason aborted and closes the connection', async () => {
    const server = await serve([{ json: firstSolution, chunkSize: 4, stallAfterChunks: 3 }]);
    const stream = openAIAgent(server).stream({ task: 'Weather in Oslo?' });
    const events: RunEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'solution-delta' && event.delta !== '') stream.abort(new Error('stop'));
    }
    const result = await stream.result;
    expect(result.stopReason).toBe('aborted');
    expect(result.output).toBeNull();
    await server.requests[0]!.closedEarly;
    expect(server.requests).toHaveLength(1);

    expect(ofType(events, 'solution-delta').length).toBeGreaterThanOrEqual(1);
    const end = ofType(events, 'request-end');
    expect(end).toHaveLength(1);
    expect(end[0]!.error).toMatchObject({ code: 'REQUEST_ABORTED' });
    expect(ofType(events, 'call-start')).toEqual([]);
    expect(events[events.length - 1]).toMatchObject({ type: 'run-end', stopReason: 'aborted' });
    // Resumable: the interrupted Generator step is pending.
    expect(result.state.nextStep).toMatchObject({
      module: 'done',
      args: { reason: 'aborted', pending: { module: 'generator' } },
    });
  });

  it('an aborted signal mid-stream does the same', async () => {
    const server = await serve([
      { json: firstSolution, chunkSize: 4, chunkDelayMs: 20, stallAfterChunks: 5 },
    ]);
    const controller = new AbortController();
    const stream = openAIAgent(server).stream({
      task: 'Weather in Oslo?',
      signal: controller.signal,
    });
    stream.run.subscribe((event) => {
      if (event.type === 'solution-delta') controller.abort(new Error('user left'));
    });
    const result = await stream.result;
    expect(result.stopReason).toBe('aborted');
    expect(stream.run.signal.aborted).toBe(true);
    await server.requests[0]!.closedEarly;
    expect(server.requests).toHaveLength(1);
  });
});
