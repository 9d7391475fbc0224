import {
  applyOutputPath,
  assertValidState,
  createInitialState,
  InvalidAgentStateError,
  InvalidIdeaError,
  InvalidOutputPathError,
  InvalidOutputWriteError,
  mergeDataMessages,
  parseIdea,
  readOutputWrite,
  renderMessage,
  renderMessages,
  resolveReferences,
  selectImports,
  viewOfKind,
  type Message,
  type OutputMethod,
} from 'ideact';

/** Issue 17 item 2: what a write records (R-OUT-5), who sees it (R-OUT-9, R-OUT-10), and old data. */

const DATE = '2025-12-08T10:00:00.000Z';

function write(
  path: string,
  output: unknown,
  method: OutputMethod = 'set',
  instance?: string,
): Message[] {
  return applyOutputPath(path, { output }, instance, { method, callId: '4:0', date: DATE });
}

function text(messages: Message[]): string {
  return renderMessages(messages)
    .map((chat) => chat.content)
    .join('\n');
}

describe('write messages (R-OUT-5)', () => {
  it('R-OUT-5 a write appends the value nested at its path plus _outputPath, _outputMethod, _call, _date', () => {
    expect(write('†state.user.tags', 'new', 'push')).toEqual([
      {
        type: 'state',
        state: { user: { tags: 'new' } },
        _outputPath: '†state.user.tags',
        _outputMethod: 'push',
        _call: '4:0',
        _date: DATE,
      },
    ]);
    expect(readOutputWrite(write('†log.last', 1, 'merge', '①')[0]!)).toEqual({
      kind: 'log',
      path: ['last'],
      text: '†log.last',
      method: 'merge',
      value: 1,
      callId: '4:0',
    });
  });

  it('R-OUT-5 the metadata never reaches the LLM: the render shows the folded value only', () => {
    const context: Message[] = [
      { type: 'state', state: { log: ['seed'] } },
      ...write('log', 'a', 'push'),
      ...write('log', ['b', 'c'], 'concat'),
    ];
    const rendered = text(context);
    expect(rendered).toContain('"log": ["seed", "a", "b", "c"]');
    for (const hidden of ['_outputMethod', '_outputPath', '_call', '_date', '4:0', DATE, 'push']) {
      expect(rendered).not.toContain(hidden);
    }
    // A single write is folded too: a push onto nothing renders as a one-item array.
    expect(renderMessage(write('items', 'only', 'push')[0]!).content).toBe(
      '## Data: ¶state\n{\n  "items": ["only"]\n}',
    );
    expect(text(write('items', 'only', 'push'))).toBe('## Data: ¶state\n{\n  "items": ["only"]\n}');
  });

  it('R-OUT-5 messages without metadata read exactly as before (R-DATA-1 merge patches)', () => {
    const plain: Message[] = [
      { type: 'state', state: { user: { name: 'Ann', zip: '1' }, tags: [1] } },
      { type: 'text', text: 'between' },
      { type: 'data', kind: 'state', data: { user: { zip: null }, tags: [2] } },
      { type: 'data', kind: 'notes', data: { a: null } },
    ];
    const merged = mergeDataMessages(plain);
    expect(merged).toEqual([
      { type: 'state', state: { user: { name: 'Ann' }, tags: [2] } },
      { type: 'text', text: 'between' },
      { type: 'data', kind: 'notes', data: { a: null } },
    ]);
    expect(merged[2]).toBe(plain[3]);
    expect(selectImports(plain, ['state', 'notes'])).toEqual([plain[0], plain[2], plain[3]]);
    expect(selectImports(plain, ['state'])[0]).toBe(plain[0]);
  });

  it('R-OUT-5 a message with _outputPath and no _outputMethod is a set', () => {
    const context: Message[] = [
      { type: 'state', state: { a: { b: 1, c: 2 } } },
      { type: 'state', state: { a: { b: 5 } }, _outputPath: '†state.a' },
    ];
    expect(viewOfKind(context, 'state')?.data).toEqual({ a: { b: 5 } });
  });

  it('R-OUT-5 unreadable metadata is a typed error, and Idea files report it at its JSON path', () => {
    const badMethod = {
      type: 'state',
      state: { a: 1 },
      _outputPath: '†state.a',
      _outputMethod: 'append',
    };
    const otherKind = { type: 'state', state: { a: 1 }, _outputPath: '†log.a' };
    const noValue = { type: 'state', state: { b: 1 }, _outputPath: '†state.a' };
    const unsafe = { type: 'state', state: { a: 1 }, _outputPath: '†state.__proto__' };
    expect(() => viewOfKind([badMethod as Message], 'state')).toThrow(InvalidOutputWriteError);
    expect(() => viewOfKind([otherKind as Message], 'state')).toThrow(InvalidOutputPathError);
    expect(() => viewOfKind([noValue as Message], 'state')).toThrow(InvalidOutputWriteError);
    const idea = (message: unknown): unknown => ({
      context: [message],
      schema: { type: 'string' },
    });
    const jsonPath = (message: unknown): string | undefined => {
      try {
        parseIdea(idea(message), 'idea.json');
      } catch (error) {
        if (InvalidIdeaError.isInstance(error)) return error.jsonPath;
      }
      return undefined;
    };
    expect(jsonPath(badMethod)).toBe('/context/0/_outputMethod');
    expect(jsonPath(otherKind)).toBe('/context/0/_outputPath');
    expect(jsonPath(noValue)).toBe('/context/0/_outputPath');
    expect(jsonPath(unsafe)).toBe('/context/0/_outputPath');
    expect(jsonPath({ ...badMethod, _outputMethod: 'push', _call: 7 })).toBe('/context/0/_call');
    expect(jsonPath({ ...badMethod, _outputMethod: 'push' })).toBeUndefined();
  });

  it('R-OUT-5 a state file with unreadable write metadata is an InvalidAgentStateError at its JSON path', () => {
    const state = createInitialState({ context: [{ type: 'state', state: { a: 1 } }] });
    const message = state.nodes[0]!.message as unknown as Record<string, unknown>;
    message._outputPath = '†state.a';
    expect(() => assertValidState(structuredClone(state))).not.toThrow();
    message._outputMethod = 'append';
    let caught: unknown;
    try {
      assertValidState(state, 'run.json');
    } catch (error) {
      caught = error;
    }
    expect(InvalidAgentStateError.isInstance(caught)).toBe(true);
    expect((caught as InvalidAgentStateError).jsonPath).toBe('/nodes/0/message/_outputMethod');
  });
});

describe('instance-scoped writes (R-OUT-9, R-INST-1)', () => {
  const context: Message[] = [
    { type: 'state', state: { log: ['global'], user: { name: 'Ann' } } },
    ...write('log', 'from ①', 'push', '①'),
    ...write('user', { city: 'Oslo' }, 'merge', '①'),
    ...write('log', 'from ②', 'push', '②'),
    ...write('log', ['only ②'], 'set', '②'),
    ...write('log', 'again ②', 'push', '②'),
  ];

  it('R-OUT-9 an instance reads the global value with its own writes applied over it', () => {
    expect(viewOfKind(context, 'state', '①')?.data).toEqual({
      log: ['global', 'from ①'],
      user: { name: 'Ann', city: 'Oslo' },
    });
    expect(viewOfKind(context, 'state', '②')?.data).toEqual({
      log: ['only ②', 'again ②'],
      user: { name: 'Ann' },
    });
    expect(viewOfKind(context, 'state')?.data).toEqual({
      log: ['global'],
      user: { name: 'Ann' },
    });
    expect(resolveReferences({ lines: '†state.log' }, context, '①')).toEqual({
      lines: ['global', 'from ①'],
    });
  });

  it('R-OUT-9 the rendered instance block shows the value the instance reads at the paths it wrote', () => {
    const blocks = mergeDataMessages(context);
    expect(blocks).toEqual([
      { type: 'state', state: { log: ['global'], user: { name: 'Ann' } } },
      {
        type: 'state',
        state: { log: ['global', 'from ①'], user: { name: 'Ann', city: 'Oslo' } },
        _instance: '①',
      },
      // ②'s set cut the global value: its later push starts from its own list.
      { type: 'state', state: { log: ['only ②', 'again ②'] }, _instance: '②' },
    ]);
  });

  it('R-OUT-10 selectImports folds the writes of an identity into one message; other messages stay', () => {
    const notes: Message = { type: 'data', kind: 'notes', data: { n: 1 } };
    const imported = selectImports([notes, ...context], ['state', 'notes'], '①');
    expect(imported[0]).toBe(notes);
    expect(imported.slice(1)).toEqual([
      { type: 'state', state: { log: ['global'], user: { name: 'Ann' } } },
      {
        type: 'state',
        state: { log: ['global', 'from ①'], user: { name: 'Ann', city: 'Oslo' } },
        _instance: '①',
      },
    ]);
    for (const message of imported) expect(readOutputWrite(message)).toBeUndefined();
  });
});
