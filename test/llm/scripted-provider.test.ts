import {
  ScriptedProvider as RootScriptedProvider,
  type JSONSchema,
  type ProviderRequest,
} from 'ideact';
import {
  ScriptExhaustedError,
  ScriptIncompleteError,
  ScriptedProvider,
  ScriptedSolutionError,
  UnparsedOption,
} from 'ideact/testing';

const schema: JSONSchema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
};
const ask = (content: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  messages: [{ role: 'user', content }],
  schema,
  ...extra,
});

describe('ScriptedProvider (ideact/testing)', () => {
  it('is the same class from the root and from ideact/testing', () => {
    expect(RootScriptedProvider).toBe(ScriptedProvider);
    expect(new ScriptedProvider([]).name).toBe('scripted');
  });

  it('replays solutions in order, calls function entries with the request and index, records every request', async () => {
    const provider = new ScriptedProvider([
      { answer: 'one' },
      (request: ProviderRequest, index: number) => ({
        answer: `${request.messages[0].content}#${index}`,
      }),
    ]);
    expect((await provider.generate(ask('first'))).options).toEqual([{ answer: 'one' }]);
    expect((await provider.generate(ask('second'))).options).toEqual([{ answer: 'second#1' }]);
    expect(provider.requests.map((request) => request.messages[0].content)).toEqual([
      'first',
      'second',
    ]);
    expect(provider.requests[0].schema).toEqual(schema);
    provider.assertComplete();
  });

  it('a single function answers every request and never runs out', async () => {
    const provider = new ScriptedProvider(async (_request, index) => ({ answer: String(index) }));
    for (let index = 0; index < 3; index++) await provider.generate(ask('q'));
    expect(provider.used).toBe(3);
    expect(() => provider.assertComplete()).not.toThrow();
  });

  it('returns copies, so callers cannot change the script', async () => {
    const solution = { answer: 'x' };
    const provider = new ScriptedProvider([solution]);
    const { options } = await provider.generate(ask('q'));
    (options[0] as { answer: string }).answer = 'changed';
    expect(solution.answer).toBe('x');
  });

  it('records each request as sent: a message array grown or replaced later leaves earlier records as they were', async () => {
    const provider = new ScriptedProvider([{ answer: 'a' }, { answer: 'b' }]);
    const messages = [{ role: 'user' as const, content: 'first' }];
    await provider.generate({ messages, schema });
    messages.push({ role: 'user', content: 'second' });
    messages[0] = { role: 'user', content: 'replaced' };
    await provider.generate({ messages, schema });
    expect(provider.requests[0]?.messages).toEqual([{ role: 'user', content: 'first' }]);
    expect(provider.requests[1]?.messages).toEqual([
      { role: 'user', content: 'replaced' },
      { role: 'user', content: 'second' },
    ]);
    // The records are copies (the sent objects are the caller's), made once per object sent.
    expect(provider.requests[1]?.messages[1]).not.toBe(messages[1]);
    expect(provider.requests[1]?.schema).not.toBe(schema);
    expect(provider.requests[1]?.schema).toBe(provider.requests[0]?.schema);
    expect(provider.requests[1]?.schema).toEqual(schema);
  });

  it('records a history sent again on every turn, shortened or rewritten, with each request its own messages and usage', async () => {
    const provider = new ScriptedProvider(() => ({ answer: 'ok' }));
    const message = (content: string) => ({ role: 'user' as const, content });
    const first = message('aaaa');
    const second = message('bbbbbbbb');
    const third = message('cccccccccccc');
    const sent = [[first], [first, second], [first, second, third], [first], [first, third]];
    const usages = [];
    for (const messages of sent) usages.push((await provider.generate({ messages, schema })).usage);
    expect(usages.map((usage) => usage.inputTokens)).toEqual([1, 3, 6, 1, 4]);
    expect(provider.requests.map((request) => request.messages.map((m) => m.content))).toEqual(
      sent.map((messages) => messages.map((m) => m.content)),
    );
    // A record is a plain request: spread, serialized, and its messages replaceable.
    const [, record] = provider.requests;
    expect(JSON.parse(JSON.stringify(record))).toEqual({ messages: [first, second], schema });
    expect({ ...record }.messages).toEqual([first, second]);
    (record as ProviderRequest).messages = [];
    expect(provider.requests[1]?.messages).toEqual([]);
    expect(provider.requests[2]?.messages).toHaveLength(3);
  });

  it('validates each solution against the request schema, naming the script index', async () => {
    const provider = new ScriptedProvider([{ answer: 'ok' }, { answer: 42 }]);
    await provider.generate(ask('q'));
    const error = await provider.generate(ask('q')).catch((caught: unknown) => caught);
    expect(ScriptedSolutionError.isInstance(error)).toBe(true);
    expect((error as ScriptedSolutionError).index).toBe(1);
    expect((error as Error).message).toContain('#1');
    expect((error as Error).message).toContain('/answer');
  });

  it('{ validate: false } lets invalid solutions through (to test repairs)', async () => {
    const provider = new ScriptedProvider([{ answer: 42 }], { validate: false });
    expect((await provider.generate(ask('q'))).options).toEqual([{ answer: 42 }]);
  });

  it('ScriptedProvider.options() answers n > 1; ScriptedProvider.raw() scripts unparseable text', async () => {
    const provider = new ScriptedProvider([
      ScriptedProvider.options([{ answer: 'a' }, { answer: 'b' }]),
      ScriptedProvider.raw('{"answer": '),
    ]);
    expect((await provider.generate(ask('q', { n: 2 }))).options).toEqual([
      { answer: 'a' },
      { answer: 'b' },
    ]);
    const [raw] = (await provider.generate(ask('q'))).options;
    expect(UnparsedOption.isInstance(raw)).toBe(true);
    expect((raw as UnparsedOption).rawText).toBe('{"answer": ');
  });

  it('an exhausted script throws ScriptExhaustedError naming how many were scripted', async () => {
    const provider = new ScriptedProvider([{ answer: 'only' }]);
    await provider.generate(ask('q'));
    const error = await provider.generate(ask('again')).catch((caught: unknown) => caught);
    expect(ScriptExhaustedError.isInstance(error)).toBe(true);
    expect((error as ScriptExhaustedError).scripted).toBe(1);
    expect((error as Error).message).toContain('only 1 solution(s) were scripted');
  });

  it('assertComplete() throws while entries are unused', async () => {
    const provider = new ScriptedProvider([{ answer: 'a' }, { answer: 'b' }]);
    await provider.generate(ask('q'));
    expect(() => provider.assertComplete()).toThrow(ScriptIncompleteError);
    expect(provider.remaining).toBe(1);
  });

  it('reports deterministic usage from the text lengths', async () => {
    const provider = new ScriptedProvider([{ answer: 'abcd' }, { answer: 'abcd' }]);
    const first = await provider.generate(ask('12345678'));
    const second = await provider.generate(ask('12345678'));
    expect(first.usage).toEqual({ inputTokens: 2, outputTokens: 5, cachedTokens: 0 });
    expect(second.usage).toEqual(first.usage);
  });
});
