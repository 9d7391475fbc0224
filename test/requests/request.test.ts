import {
  InvalidSolutionError,
  OpenAIProvider,
  RefusalError,
  TruncatedResponseError,
  renderMessages,
  request,
  runRequest,
  InvalidSchemaError,
  RequestAbortedError,
  type JSONSchema,
  type Message,
  type Provider,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type ScriptedReply,
} from '../support/chat-completions-server';

const schema: JSONSchema = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1 } },
  required: ['city', 'days'],
};
const context: Message[] = [
  { type: 'system', text: 'You plan trips.' },
  { type: 'text', text: 'Plan a trip.' },
  { type: 'data', kind: 'user', data: { name: 'Ada' } },
  { type: 'data', kind: 'user', data: { home: 'London' } },
];

const servers: ChatCompletionsServer[] = [];
async function openai(
  replies: ScriptedReply[],
  mode: 'json_schema' | 'json_object' = 'json_schema',
) {
  const server = await startChatCompletionsServer(replies);
  servers.push(server);
  const provider = new OpenAIProvider({
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    model: 'm',
    mode,
    env: {},
  });
  return { server, provider };
}
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('request pipeline (R-REQ-1..3)', () => {
  it('renders the merged context with the default handlers and returns the valid solution', async () => {
    const provider = new ScriptedProvider([{ city: 'Paris', days: 3 }]);
    const result = await runRequest({ context, schema, schemaName: 'trip' }, { provider });
    expect(result.solution).toEqual({ city: 'Paris', days: 3 });
    expect(result.options).toEqual([{ city: 'Paris', days: 3 }]);
    expect(result.repairs).toBe(0);
    expect(result.messages).toEqual(renderMessages(context));
    expect(result.messages).toHaveLength(3); // the two `user` data messages merged (R-DATA-1)
    expect(provider.requests[0]).toMatchObject({
      messages: result.messages,
      schema,
      schemaName: 'trip',
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('passes model, temperature and n to the provider and keeps every valid option', async () => {
    const provider = new ScriptedProvider(
      [
        ScriptedProvider.options([
          { city: 'x', days: 0 },
          { city: 'Rome', days: 2 },
          { city: 'Oslo', days: 1 },
        ]),
      ],
      { validate: false },
    );
    const result = await runRequest(
      { context, schema },
      { provider, model: 'big', temperature: 0.7, n: 3 },
    );
    expect(provider.requests[0]).toMatchObject({ model: 'big', temperature: 0.7, n: 3 });
    expect(result.options).toEqual([
      { city: 'Rome', days: 2 },
      { city: 'Oslo', days: 1 },
    ]);
    expect(result.solution).toEqual({ city: 'Rome', days: 2 });
    expect(result.repairs).toBe(0);
  });

  it("keeps each valid option's reasoning beside it and drops the invalid options' reasoning", async () => {
    const provider: Provider = {
      name: 'reasoner',
      generate: async () => ({
        options: [
          { city: 'x', days: 0 },
          { city: 'Rome', days: 2 },
          { city: 'Oslo', days: 1 },
        ],
        reasoning: [[{ text: 'too short' }], [], [{ text: 'north' }]],
        usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
      }),
    };
    const result = await runRequest({ context, schema }, { provider, n: 3 });
    expect(result.options).toEqual([
      { city: 'Rome', days: 2 },
      { city: 'Oslo', days: 1 },
    ]);
    expect(result.reasoning).toEqual([[], [{ text: 'north' }]]);
    // Without any reasoning text the result has no `reasoning` field at all.
    const plain = await runRequest(
      { context, schema },
      { provider: new ScriptedProvider([{ city: 'Rome', days: 2 }]) },
    );
    expect('reasoning' in plain).toBe(false);
  });

  it('invalid JSON then a valid repair (real openai client): the repair request shows the raw reply and the error', async () => {
    const { server, provider } = await openai([
      {
        text: '{"city": "Paris", "days": ',
        usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 0 },
      },
      {
        json: { city: 'Paris', days: 4 },
        usage: { promptTokens: 130, completionTokens: 12, cachedTokens: 100 },
      },
    ]);
    const result = await runRequest({ context, schema }, { provider });
    expect(result.solution).toEqual({ city: 'Paris', days: 4 });
    expect(result.repairs).toBe(1);
    expect(result.usage).toEqual({ inputTokens: 230, outputTokens: 22, cachedTokens: 100 });
    expect(server.requests).toHaveLength(2);
    const repairMessages = server.requests[1].body.messages as Array<{
      role: string;
      content: string;
    }>;
    const first = server.requests[0].body.messages as unknown[];
    expect(repairMessages.slice(0, first.length)).toEqual(first);
    expect(repairMessages[first.length]).toEqual({
      role: 'assistant',
      content: '{"city": "Paris", "days": ',
    });
    expect(repairMessages[first.length + 1].role).toBe('user');
    expect(repairMessages[first.length + 1].content).toContain('not valid JSON');
  });

  it('a schema violation then a repair: the errors name the JSON paths', async () => {
    const provider = new ScriptedProvider(
      [
        { city: 'P', days: 0 },
        { city: 'Paris', days: 1 },
      ],
      { validate: false },
    );
    const result = await runRequest({ context, schema }, { provider });
    expect(result.solution).toEqual({ city: 'Paris', days: 1 });
    expect(result.repairs).toBe(1);
    const repair = provider.requests[1].messages;
    expect(repair[repair.length - 2]).toEqual({
      role: 'assistant',
      content: '{"city":"P","days":0}',
    });
    expect(repair[repair.length - 1].content).toContain('/city');
    expect(repair[repair.length - 1].content).toContain('/days');
    // the repair asks for one option, whatever n was
    expect(provider.requests[1].n).toBeUndefined();
  });

  it('repairs exhausted → InvalidSolutionError with the raw text, the issues and the schema name', async () => {
    const { server, provider } = await openai([
      { json: { city: 'Paris' } },
      { json: { city: 'Paris' } },
      { text: 'sorry, no JSON' },
    ]);
    const error = await request(
      { context, schema, schemaName: 'trip' },
      { provider, maxRepairs: 2 },
    ).catch((caught: unknown) => caught);
    expect(InvalidSolutionError.isInstance(error)).toBe(true);
    const invalid = error as InvalidSolutionError;
    expect(invalid.rawText).toBe('sorry, no JSON');
    expect(invalid.issues[0].message).toContain('not valid JSON');
    expect(invalid.attempts).toBe(3);
    expect(invalid.message).toContain('"trip"');
    expect(invalid.fault).toBe('model');
    expect(server.requests).toHaveLength(3);
  });

  it('maxRepairs: 0 fails on the first invalid reply', async () => {
    const provider = new ScriptedProvider([{ city: 'Paris' }], { validate: false });
    const error = await request({ context, schema }, { provider, maxRepairs: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(InvalidSolutionError.isInstance(error)).toBe(true);
    expect((error as InvalidSolutionError).rawText).toBe('{"city":"Paris"}');
    expect((error as InvalidSolutionError).issues).toEqual([
      { path: '', message: "must have required property 'days'" },
    ]);
  });

  it('R-REQ-1: the context is rebuilt per request; repairs of one request do not leak into the next', async () => {
    const provider = new ScriptedProvider(
      [
        { city: 'P', days: 1 },
        { city: 'Paris', days: 1 },
        { city: 'Rome', days: 2 },
      ],
      { validate: false },
    );
    await request({ context, schema }, { provider });
    await request({ context, schema }, { provider });
    expect(provider.requests[2].messages).toEqual(provider.requests[0].messages);
    expect(context).toHaveLength(4); // the caller's context is not mutated
  });

  it('a refusal and a truncated reply surface as typed errors, without repairs', async () => {
    const refused = await openai([{ choices: [{ content: null, refusal: 'No.' }] }]);
    await expect(
      request({ context, schema }, { provider: refused.provider }),
    ).rejects.toBeInstanceOf(RefusalError);
    expect(refused.server.requests).toHaveLength(1);
    const truncated = await openai([
      { choices: [{ content: '{"city":', finishReason: 'length' }] },
    ]);
    const error = await request({ context, schema }, { provider: truncated.provider }).catch(
      (caught: unknown) => caught,
    );
    expect(TruncatedResponseError.isInstance(error)).toBe(true);
    expect((error as TruncatedResponseError).rawText).toBe('{"city":');
  });

  it('json_object mode end to end: schema in the prompt, reply validated, violation repaired', async () => {
    const { server, provider } = await openai(
      [{ json: { city: 'Paris', days: 'three' } }, { text: '{"city":"Paris","days":3}' }],
      'json_object',
    );
    const result = await runRequest({ context, schema }, { provider });
    expect(result.solution).toEqual({ city: 'Paris', days: 3 });
    expect(result.repairs).toBe(1);
    expect(server.requests[0].body.response_format).toEqual({ type: 'json_object' });
    const sent = server.requests[0].body.messages as Array<{ role: string; content: string }>;
    expect(sent[sent.length - 1].content).toContain('"minLength": 2');
    // what the caller sees as `messages` is the rendered context, without the provider's instruction
    expect(result.messages).toEqual(renderMessages(context));
  });

  it('json_schema mode end to end: a strict reply with nulls is converted back and validated against the original', async () => {
    const optional: JSONSchema = {
      type: 'object',
      properties: { city: { type: 'string' }, note: { type: 'string' } },
      required: ['city'],
    };
    const { provider } = await openai([{ json: { city: 'Paris', note: null } }]);
    expect(await request({ context, schema: optional }, { provider })).toEqual({ city: 'Paris' });
  });

  it('an invalid schema fails before any provider call', async () => {
    const provider = new ScriptedProvider([]);
    await expect(
      request({ context, schema: { type: 'nonsense' } }, { provider }),
    ).rejects.toBeInstanceOf(InvalidSchemaError);
    expect(provider.requests).toHaveLength(0);
  });

  it('an aborted signal stops before the provider is called', async () => {
    const provider = new ScriptedProvider([{ city: 'Paris', days: 1 }]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      request({ context, schema }, { provider, signal: controller.signal }),
    ).rejects.toBeInstanceOf(RequestAbortedError);
    expect(provider.requests).toHaveLength(0);
  });
});
