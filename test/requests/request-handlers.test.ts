import {
  UnhandledMessageError,
  defaultMessageHandlers,
  prepareRequest,
  renderMessages,
  runRequest,
  type JSONSchema,
  type Message,
  type MessageHandler,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

const schema: JSONSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
};

describe('message handlers (R-REQ-2)', () => {
  it('the defaults handle every message type, one handler per type, rendering like renderMessages', async () => {
    const context: Message[] = [
      { type: 'system', text: 'Be brief.' },
      { type: 'text', text: 'Hi', role: 'assistant' },
      { type: 'input', input: { city: 'Paris' } },
      { type: 'state', state: { step: 1 } },
      { type: 'state', state: { step: 2 } },
      { type: 'data', kind: 'user', data: { name: 'Ada' } },
      { type: 'result', call: { _tool: 'weather', city: 'Paris' }, output: { temp: 20 } },
    ];
    expect(defaultMessageHandlers().map((handler) => handler.name)).toEqual([
      'system',
      'text',
      'data',
      'result',
    ]);
    const draft = await prepareRequest({ context, schema }, {});
    expect(draft.messages).toEqual(renderMessages(context));
    expect(draft.context).toHaveLength(6); // the two states merged before rendering
  });

  it('a user handler for a custom data kind overrides the default for those messages only', async () => {
    const imageHandler: MessageHandler = {
      name: 'image',
      matches: (message) => message.type === 'data' && message.kind === 'image',
      render: (message) => [
        {
          role: 'user',
          content: `[image ${String((message as { data: { url: string } }).data.url)}]`,
        },
      ],
    };
    const provider = new ScriptedProvider([{ ok: true }]);
    const result = await runRequest(
      {
        context: [
          { type: 'text', text: 'Describe:' },
          { type: 'data', kind: 'image', data: { url: 'a.png' } },
          { type: 'data', kind: 'user', data: { name: 'Ada' } },
        ],
        schema,
      },
      { provider, handlers: [imageHandler] },
    );
    expect(provider.requests[0].messages[1]).toEqual({ role: 'user', content: '[image a.png]' });
    expect(provider.requests[0].messages[2].content).toContain('## Data: ¶user');
    expect(result.messages).toEqual(provider.requests[0].messages);
  });

  it('a handler returning undefined passes the message on to earlier handlers', async () => {
    const seen: string[] = [];
    const observer: MessageHandler = {
      name: 'observer',
      matches: () => true,
      render: (message) => {
        seen.push(message.type);
        return undefined;
      },
    };
    const draft = await prepareRequest({ context: [{ type: 'text', text: 'x' }], schema }, {}, [
      observer,
    ]);
    expect(seen).toEqual(['text']);
    expect(draft.messages).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('asynchronous handlers are awaited, and an asynchronous undefined also passes the message on', async () => {
    const lookup: MessageHandler = {
      name: 'lookup',
      matches: (message) => message.type === 'text',
      render: async (message) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (message.type === 'text' && message.text === 'skip') return undefined;
        return [{ role: 'user', content: 'looked up' }];
      },
    };
    const context: Message[] = [
      { type: 'text', text: 'find' },
      { type: 'text', text: 'skip' },
    ];
    const draft = await prepareRequest({ context, schema }, {}, [lookup]);
    expect(draft.messages).toEqual([
      { role: 'user', content: 'looked up' },
      { role: 'user', content: 'skip' },
    ]);
  });

  it('handlers may change the model config, the schema and the messages (finish prepends a system message)', async () => {
    const changed: JSONSchema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
    };
    const configure: MessageHandler = {
      name: 'configure',
      matches: (message) => message.type === 'data' && message.kind === 'settings',
      render: (message, draft) => {
        const settings = (message as { data: { model: string; n: number } }).data;
        draft.config.model = settings.model;
        draft.config.n = settings.n;
        draft.config.temperature = 0;
        draft.config.schemaName = 'answer';
        draft.schema = changed;
        return [];
      },
    };
    const preamble: MessageHandler = {
      name: 'preamble',
      finish: (draft) => {
        draft.messages.unshift({ role: 'system', content: 'Company policy: be kind.' });
      },
    };
    const provider = new ScriptedProvider([
      ScriptedProvider.options([{ answer: 'a' }, { answer: 'b' }]),
    ]);
    const result = await runRequest(
      {
        context: [
          { type: 'text', text: 'Question?' },
          { type: 'data', kind: 'settings', data: { model: 'small', n: 2 } },
        ],
        schema,
      },
      { provider, handlers: [configure, preamble], model: 'ignored' },
    );
    expect(provider.requests[0]).toMatchObject({
      model: 'small',
      n: 2,
      temperature: 0,
      schemaName: 'answer',
      schema: changed,
      messages: [
        { role: 'system', content: 'Company policy: be kind.' },
        { role: 'user', content: 'Question?' },
      ],
    });
    // validation uses the schema the handlers produced
    expect(result.options).toEqual([{ answer: 'a' }, { answer: 'b' }]);
  });

  it('a mix of synchronous and asynchronous renders and finish() steps keeps the order of messages and of finish() calls', async () => {
    const order: string[] = [];
    const later: MessageHandler = {
      name: 'later',
      matches: (message) => message.type === 'text' && message.text.startsWith('async'),
      render: async (message) => {
        await new Promise((resolve) => setImmediate(resolve));
        return [{ role: 'user', content: `rendered ${(message as { text: string }).text}` }];
      },
      finish: () => {
        order.push('later');
      },
    };
    const slowFinish: MessageHandler = {
      name: 'slow-finish',
      finish: async (draft) => {
        await new Promise((resolve) => setImmediate(resolve));
        order.push('slow');
        draft.messages.push({ role: 'user', content: 'appended by finish' });
      },
    };
    const last: MessageHandler = {
      name: 'last',
      finish: (draft) => {
        order.push(`last saw ${draft.messages.length}`);
      },
    };
    const context: Message[] = [
      { type: 'text', text: 'one' },
      { type: 'text', text: 'async two' },
      { type: 'text', text: 'three' },
    ];
    const draft = await prepareRequest({ context, schema }, {}, [later, slowFinish, last]);
    expect(draft.messages.map((message) => message.content)).toEqual([
      'one',
      'rendered async two',
      'three',
      'appended by finish',
    ]);
    expect(order).toEqual(['later', 'slow', 'last saw 4']);
    // Every render synchronous, one finish() asynchronous: the finish() steps after it wait for it.
    order.length = 0;
    const finished = await prepareRequest({ context: [context[0] as Message], schema }, {}, [
      later,
      slowFinish,
      last,
    ]);
    expect(finished.messages.map((message) => message.content)).toEqual([
      'one',
      'appended by finish',
    ]);
    expect(order).toEqual(['later', 'slow', 'last saw 2']);
  });

  it('runRequest reports a message no handler renders as a rejection, never a synchronous throw', async () => {
    const bogus = { type: 'image', url: 'x' } as unknown as Message;
    const provider = new ScriptedProvider([{ ok: true }]);
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = runRequest({ context: [bogus], schema }, { provider });
    }).not.toThrow();
    await expect(pending).rejects.toBeInstanceOf(UnhandledMessageError);
    expect(provider.used).toBe(0);
  });

  it('a message no handler renders is a typed error naming its index and type', async () => {
    const bogus = { type: 'image', url: 'x' } as unknown as Message;
    const error = await prepareRequest(
      { context: [{ type: 'text', text: 'a' }, bogus], schema },
      {},
    ).catch((caught: unknown) => caught);
    expect(UnhandledMessageError.isInstance(error)).toBe(true);
    expect((error as UnhandledMessageError).index).toBe(1);
    expect((error as Error).message).toContain('"image"');
  });
});
