import {
  buildVesselSchema,
  callSchema,
  checkSchemaToolNames,
  InvalidIdeaError,
  parseIdea,
  readTool,
  schemaVocabulary,
  toolVocabulary,
  type JSONSchema,
  type ToolSchema,
} from 'ideact';

function tool(name: string, properties: Record<string, unknown>): ToolSchema {
  return {
    type: 'object',
    properties: { _tool: { const: name }, topic: { type: 'string' }, ...properties },
    required: ['_tool', 'topic'],
  } as ToolSchema;
}

/** A Vessel Idea whose only tool has `properties` besides its name and a `topic` param. */
function vesselIdea(properties: Record<string, unknown>): unknown {
  return {
    context: [],
    schema: {
      type: 'object',
      properties: {
        calls: { type: 'array', items: { anyOf: [tool('composer', properties)] } },
        output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['calls', 'output'],
    },
  };
}

function thrown(run: () => unknown): InvalidIdeaError {
  try {
    run();
  } catch (error) {
    expect(InvalidIdeaError.isInstance(error)).toBe(true);
    return error as InvalidIdeaError;
  }
  throw new Error('expected an InvalidIdeaError');
}

describe('readTool in both vocabularies (R-DEL-1, R-SCOPE-1)', () => {
  it('R-DEL-1 reads `_delegate` as it reads `_module`, and says which name was written', () => {
    const seeds = readTool(tool('t', { _module: { const: 'composer.json' } }));
    const acts = readTool(tool('t', { _delegate: { const: 'composer.json' } }));
    expect(seeds.module).toBe('composer.json');
    expect(seeds.moduleField).toBe('_module');
    expect(acts.module).toBe('composer.json');
    expect(acts.moduleField).toBe('_delegate');
    expect({ ...acts, moduleField: '_module' }).toEqual(seeds);
    expect(readTool(tool('t', { _delegate: { const: 'anonymous' } })).module).toBe('anonymous');
  });

  it('R-SCOPE-1 reads `_scopes` in both forms: fixed (const) and chosen by the model (array of enum)', () => {
    expect(readTool(tool('t', { _scopes: { const: ['input'] } })).imports).toEqual({
      mode: 'static',
      kinds: ['input'],
      field: '_scopes',
    });
    expect(
      readTool(tool('t', { _scopes: { type: 'array', items: { enum: ['state', 'input'] } } }))
        .imports,
    ).toEqual({ mode: 'dynamic', kinds: ['state', 'input'], field: '_scopes' });
    expect(readTool(tool('t', { _imports: { const: ['input'] } })).imports).toEqual({
      mode: 'static',
      kinds: ['input'],
      field: '_imports',
    });
  });

  it('R-DEL-2 R-SCOPE-2 both names with the same value are fine (the seed name is read)', () => {
    const info = readTool(
      tool('t', {
        _module: { const: 'a.json' },
        _delegate: { const: 'a.json', description: 'same delegate' },
        _imports: { const: ['input'] },
        _scopes: { const: ['input'] },
      }),
    );
    expect(info.module).toBe('a.json');
    expect(info.moduleField).toBe('_module');
    expect(info.imports).toEqual({ mode: 'static', kinds: ['input'], field: '_imports' });
  });

  it('R-DEL-2 `_module` and `_delegate` that differ: InvalidIdeaError naming the tool and the field', () => {
    const error = thrown(() =>
      readTool(tool('composer', { _module: { const: 'a.json' }, _delegate: { const: 'b.json' } })),
    );
    expect(error.source).toBe('tool "composer"');
    expect(error.jsonPath).toBe('/properties/_delegate');
    expect(error.message).toContain(
      'tool "composer" writes both "_module" ({"const":"a.json"}) and "_delegate" ({"const":"b.json"}), which differ',
    );
  });

  it('R-SCOPE-2 `_imports` and `_scopes` that differ (kinds or form): InvalidIdeaError', () => {
    expect(
      thrown(() =>
        readTool(tool('t', { _imports: { const: ['input'] }, _scopes: { const: ['state'] } })),
      ).jsonPath,
    ).toBe('/properties/_scopes');
    expect(() =>
      readTool(
        tool('t', {
          _imports: { const: ['input'] },
          _scopes: { type: 'array', items: { enum: ['input'] } },
        }),
      ),
    ).toThrow(/writes both "_imports" .* and "_scopes"/);
  });

  it('R-DEL-2 parseIdea names the Idea file and the JSON path of the conflicting field', () => {
    const error = thrown(() =>
      parseIdea(
        vesselIdea({ _module: { const: 'a.json' }, _delegate: { const: 'b.json' } }),
        'ideas/producer.json',
      ),
    );
    expect(error.source).toBe('ideas/producer.json');
    expect(error.jsonPath).toBe('/schema/properties/calls/items/anyOf/0/properties/_delegate');
    expect(error.message).toMatch(
      /^Invalid Idea in ideas\/producer\.json at \/schema\/properties\/calls\/items\/anyOf\/0\/properties\/_delegate: tool "composer" writes both "_module"/,
    );
    // The same Idea with one name, or both equal, parses.
    expect(() =>
      parseIdea(vesselIdea({ _delegate: { const: 'b.json' } }), 'ideas/producer.json'),
    ).not.toThrow();
    expect(() =>
      parseIdea(
        vesselIdea({ _module: { const: 'b.json' }, _delegate: { const: 'b.json' } }),
        'ideas/producer.json',
      ),
    ).not.toThrow();
    expect(() =>
      checkSchemaToolNames((vesselIdea({}) as { schema: JSONSchema }).schema, {
        source: 'x',
        jsonPath: '/schema',
      }),
    ).not.toThrow();
  });

  it('tells the vocabulary of a tool and of a schema (acts only when no seed name is used)', () => {
    expect(toolVocabulary(tool('t', { _delegate: { const: 'a.json' } }))).toBe('acts');
    expect(toolVocabulary(tool('t', { _scopes: { const: ['input'] } }))).toBe('acts');
    expect(toolVocabulary(tool('t', { _module: { const: 'a.json' } }))).toBe('seeds');
    expect(toolVocabulary(tool('t', {}))).toBe('seeds');
    const schema = (idea: unknown): JSONSchema => (idea as { schema: JSONSchema }).schema;
    expect(schemaVocabulary(schema(vesselIdea({ _delegate: { const: 'a.json' } })))).toBe('acts');
    expect(schemaVocabulary(schema(vesselIdea({ _module: { const: 'a.json' } })))).toBe('seeds');
    expect(
      schemaVocabulary(
        schema(vesselIdea({ _delegate: { const: 'a.json' }, _imports: { const: ['input'] } })),
      ),
    ).toBe('seeds');
    expect(schemaVocabulary({ type: 'string' })).toBe('seeds');
  });
});

describe('the Vessel the model sees (R-SCOPE-1, R-DEL-1)', () => {
  it('R-SCOPE-1 a model-chosen `_scopes` is offered as `_scopes`; fixed scopes and `_delegate` stay hidden', () => {
    const choose = tool('research', {
      _delegate: { const: 'anonymous' },
      _output: { type: 'string' },
      _scopes: { type: 'array', items: { enum: ['input', 'state'] } },
    });
    const fixed = tool('summarize', {
      _delegate: { const: 'summarize.json' },
      _scopes: { const: ['input'] },
    });
    const chooseSchema = callSchema(choose);
    expect(Object.keys(chooseSchema.properties!)).toEqual([
      '_reasoningForCall',
      '_tool',
      'topic',
      '_scopes',
    ]);
    expect(chooseSchema.properties!._scopes).toEqual({
      type: 'array',
      items: { enum: ['input', 'state'] },
    });
    expect(Object.keys(callSchema(fixed).properties!)).toEqual([
      '_reasoningForCall',
      '_tool',
      'topic',
    ]);
  });

  it('R-SCOPE-1 R-DEL-1 the Vessel of an `_delegate`/`_scopes` tool equals its `_module`/`_imports` twin, `_scopes` for `_imports`', () => {
    const acts = tool('research', {
      _delegate: { const: 'research.json' },
      _scopes: { type: 'array', items: { enum: ['input', 'state'] } },
    });
    const seeds = tool('research', {
      _module: { const: 'research.json' },
      _imports: { type: 'array', items: { enum: ['input', 'state'] } },
    });
    const shown = JSON.stringify(buildVesselSchema([acts]));
    expect(shown).toContain('"_scopes"');
    expect(shown).not.toContain('_imports');
    expect(shown).not.toContain('_delegate');
    expect(shown.replace(/"_scopes"/g, '"_imports"')).toBe(
      JSON.stringify(buildVesselSchema([seeds])),
    );
  });
});
