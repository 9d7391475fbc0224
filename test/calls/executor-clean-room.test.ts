import {
  buildVesselSchema,
  callSchema,
  Executor,
  Toolkit,
  ModuleLoader,
  type ActivityContext,
  type Message,
  type ResultMessage,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  IMPORTABLE,
  makeModuleRoot,
  parentContext,
  removeRoot,
  SECRET,
  summarizeIdea,
  tool,
} from './executor-fixtures';

let root: string;
beforeAll(async () => {
  root = await makeModuleRoot({ 'summarize.json': summarizeIdea });
});
afterAll(() => removeRoot(root));

function result(messages: Message[]): ResultMessage {
  const first = messages[0];
  if (first?.type !== 'result') throw new Error('expected a result message first');
  return first;
}

/** Everything the provider received, as one string to search. */
function received(provider: ScriptedProvider): string {
  return JSON.stringify(provider.requests);
}

function expectNoSecrets(text: string, alsoHidden: string[] = []): void {
  for (const secret of [...Object.values(SECRET), ...alsoHidden]) {
    expect(text).not.toContain(secret);
  }
}

const summaryOutput = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
};

describe('Module clean room (R-MOD-1, R-MOD-2): nothing not imported reaches the module', () => {
  it('file module, latent, static imports: module context + imported state + the params only', async () => {
    const provider = new ScriptedProvider([{ summary: 'done' }]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [
        tool('summarize', {
          text: { type: 'string' },
          _module: { const: 'summarize.json' },
          _imports: { const: ['state'] },
        }),
      ],
    });
    const messages = await executor.call(
      { _tool: 'summarize', text: 'PARAM-TEXT-VALUE' },
      parentContext(),
    );
    expect(result(messages).output).toEqual({ summary: 'done' });
    const seen = received(provider);
    expectNoSecrets(seen, [IMPORTABLE.input, 'EXAMPLE-INPUT-FROM-THE-IDEA']);
    expect(seen).toContain(IMPORTABLE.state);
    expect(seen).toContain('PARAM-TEXT-VALUE');
    expect(seen).toContain('MODULE-SYSTEM');
    expect(seen).toContain('MODULE-INPUT-SCHEMA');
    expect(provider.requests[0]?.schema).toMatchObject({ properties: { summary: {} } });
  });

  it('anonymous module, latent: empty context + imported input + the params; schema = the tool _output', async () => {
    const provider = new ScriptedProvider([{ summary: 'anon' }]);
    const executor = new Executor({
      provider,
      tools: [
        tool('digest', {
          topic: { type: 'string' },
          _module: { const: 'anonymous' },
          _imports: { const: ['input'] },
          _output: summaryOutput,
        }),
      ],
    });
    const messages = await executor.call(
      { _tool: 'digest', topic: 'PARAM-TOPIC' },
      parentContext(),
    );
    expect(result(messages).output).toEqual({ summary: 'anon' });
    const seen = received(provider);
    expectNoSecrets(seen, [IMPORTABLE.state]);
    expect(seen).toContain(IMPORTABLE.input);
    expect(seen).toContain('PARAM-TOPIC');
    expect(provider.requests[0]?.schema).toMatchObject({ properties: { summary: {} } });
  });

  it('anonymous module, latent, no imports: only the params reach the module', async () => {
    const provider = new ScriptedProvider([{ summary: 'alone' }]);
    const executor = new Executor({
      provider,
      tools: [
        tool('digest', {
          topic: { type: 'string' },
          _module: { const: 'anonymous' },
          _output: summaryOutput,
        }),
      ],
    });
    await executor.call({ _tool: 'digest', topic: 'PARAM-TOPIC' }, parentContext());
    const seen = received(provider);
    expectNoSecrets(seen, [IMPORTABLE.state, IMPORTABLE.input]);
    expect(seen).toContain('PARAM-TOPIC');
  });

  it('anonymous module, explicit: the Activity sees only the imported messages, the provider nothing', async () => {
    const provider = new ScriptedProvider([]);
    let seen: ActivityContext | undefined;
    const executor = new Executor({
      provider,
      tools: [
        tool('inspect', {
          note: { type: 'string' },
          _module: { const: 'anonymous' },
          _activity: { const: 'inspectActivity' },
          _imports: { const: ['state'] },
        }),
        tool('inspectNoImports', {
          _module: { const: 'anonymous' },
          _activity: { const: 'inspectActivity' },
        }),
      ],
      activities: [
        {
          inspectActivity: (params, context) => {
            seen = context;
            return params;
          },
        },
      ],
    });
    const messages = await executor.call({ _tool: 'inspect', note: 'PARAM-NOTE' }, parentContext());
    expect(result(messages).output).toEqual({ note: 'PARAM-NOTE' });
    const visible = JSON.stringify(seen?.context);
    expectNoSecrets(visible, [IMPORTABLE.input]);
    expect(visible).toContain(IMPORTABLE.state);
    expect(provider.requests).toHaveLength(0);

    await executor.call({ _tool: 'inspectNoImports' }, parentContext());
    expect(seen?.context).toEqual([]);
  });

  it('file module with dynamic imports: only the kinds the Call chose (within the enum) arrive', async () => {
    const provider = new ScriptedProvider([{ summary: 'dyn' }]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [
        tool('summarize', {
          text: { type: 'string' },
          _module: { const: 'summarize.json' },
          _imports: { type: 'array', items: { enum: ['input', 'state', 'notes'] } },
        }),
      ],
    });
    const messages = await executor.call(
      { _tool: 'summarize', text: 'PARAM-TEXT', _imports: ['input'] },
      parentContext(),
    );
    expect(result(messages).output).toEqual({ summary: 'dyn' });
    const seen = received(provider);
    expectNoSecrets(seen, [IMPORTABLE.state]);
    expect(seen).toContain(IMPORTABLE.input);
    expect(seen).toContain('PARAM-TEXT');

    const refused = await executor.call(
      { _tool: 'summarize', text: 'x', _imports: ['secret'] },
      parentContext(),
    );
    expect(result(refused).error?.code).toBe('IMPORT_NOT_ALLOWED');
    expect(provider.requests).toHaveLength(1);
  });

  it('resolves † references against the parent before the module sees the params (only the value crosses)', async () => {
    const provider = new ScriptedProvider([{ summary: 'ref' }]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [
        tool('summarize', { text: { type: 'string' }, _module: { const: 'summarize.json' } }),
      ],
    });
    const context: Message[] = [
      ...parentContext(),
      {
        type: 'data',
        kind: 'doc',
        data: { body: 'REFERENCED-BODY', other: 'UNREFERENCED-SIBLING' },
      },
    ];
    await executor.call({ _tool: 'summarize', text: '†doc.body' }, context);
    const seen = received(provider);
    expect(seen).toContain('REFERENCED-BODY');
    expectNoSecrets(seen, ['UNREFERENCED-SIBLING', IMPORTABLE.input, IMPORTABLE.state]);
  });
});

describe('Module resolution (R-MOD-3, R-MOD-4)', () => {
  it('execution-time: params that do not match the module input schema still reach it', async () => {
    const provider = new ScriptedProvider([{ summary: 'bridged' }]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [
        tool('summarize', {
          content: { type: 'string' },
          words: { type: 'integer' },
          _module: { const: 'summarize.json' },
        }),
      ],
    });
    const messages = await executor.call(
      { _tool: 'summarize', content: 'MISMATCHED-PARAM', words: 12 },
      [],
    );
    expect(result(messages).output).toEqual({ summary: 'bridged' });
    const seen = received(provider);
    expect(seen).toContain('MISMATCHED-PARAM');
    // The module's own input schema (asking for `text`) is shown next to the mismatched params.
    expect(seen).toContain('MODULE-INPUT-SCHEMA');
  });

  it('upfront: the module contract is merged into the tool the parent LLM sees', async () => {
    const declared = tool('summarize', {
      _module: { const: 'summarize.json' },
      _resolution: { const: 'upfront' },
      maxWords: { type: 'integer' },
    });
    const toolkit = new Toolkit({
      tools: [declared],
      loader: new ModuleLoader({ moduleRoot: root }),
    });
    const [resolved] = await toolkit.list();
    if (resolved === undefined) throw new Error('expected the resolved tool');
    expect(resolved.properties.text).toEqual({
      type: 'string',
      description: 'MODULE-INPUT-SCHEMA',
    });
    expect(resolved.properties._output).toEqual(summarizeIdea.schema);
    expect(resolved.required).toContain('text');

    const parentView = callSchema(resolved);
    expect(Object.keys(parentView.properties ?? {})).toEqual(
      expect.arrayContaining(['text', 'maxWords']),
    );
    expect(JSON.stringify(buildVesselSchema([resolved]))).toContain('MODULE-INPUT-SCHEMA');
    // Without upfront resolution the parent sees only the declared params.
    expect(JSON.stringify(callSchema(declared))).not.toContain('MODULE-INPUT-SCHEMA');
  });
});
