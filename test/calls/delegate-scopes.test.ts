import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  createAgent,
  Executor,
  parseIdea,
  vesselIdeaParts,
  type AgentState,
  type Message,
  type ProviderRequest,
  type ResultMessage,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { MUSIC_IDEAS } from '../../examples/music/run';
import { musicScript } from '../../examples/music/script';
import { makeModuleRoot, removeRoot, tool } from './executor-fixtures';

/** The seed names → the newer names, as a text rewrite of JSON (the music Ideas use them only as keys). */
function toActs(json: string): string {
  return json.replace(/"_module"/g, '"_delegate"').replace(/"_imports"/g, '"_scopes"');
}

/**
 * The newer names → the seed names (also inside rendered JSON text): what an `_delegate`/`_scopes`
 * run must equal once renamed.
 */
function toSeeds(json: string): string {
  return json.replace(/\b_delegate\b/g, '_module').replace(/\b_scopes\b/g, '_imports');
}

/**
 * What a provider received, as comparable JSON (no AbortSignal). Parallel Calls finish in any order,
 * so the requests are sorted, and so is each run of consecutive `## Result of` messages.
 */
function sentRequests(requests: readonly ProviderRequest[]): string[] {
  return requests
    .map(({ signal: _signal, messages, ...request }) => {
      const ordered: typeof messages = [];
      let results: typeof messages = [];
      const flush = (): void => {
        ordered.push(...results.sort((a, b) => a.content.localeCompare(b.content)));
        results = [];
      };
      for (const message of messages) {
        if (message.content.startsWith('## Result of')) results.push(message);
        else {
          flush();
          ordered.push(message);
        }
      }
      flush();
      return JSON.stringify({ ...request, messages: ordered });
    })
    .sort((left, right) => left.localeCompare(right));
}

/** Every message of a run and its nested runs, as sorted JSON (result order follows finishing order). */
function stateMessages(state: AgentState): string[] {
  const messages: string[] = [];
  const visit = (run: AgentState): void => {
    for (const node of run.nodes) {
      // A write's `_date` (R-OUT-5) is the time it happened: the only field two runs differ in.
      messages.push(
        JSON.stringify(node.message, (key, value: unknown) =>
          key === '_date' ? undefined : value,
        ),
      );
      for (const nested of node.metadata.nested ?? []) visit(nested);
    }
  };
  visit(state);
  return messages.sort((left, right) => left.localeCompare(right));
}

/** Runs the music producer Idea of `root` like `runMusic`, with the scripted model of the example. */
async function runProducer(
  root: string,
  rewrite: (json: string) => string,
): Promise<{ provider: ScriptedProvider; output: unknown; state: AgentState }> {
  const file = path.join(root, 'producer.json');
  const idea = parseIdea(JSON.parse(await fs.readFile(file, 'utf8')), file);
  const parts = vesselIdeaParts(idea)!;
  const script = musicScript();
  // The example's model writes `_imports` in its Calls; the newer twin's model writes `_scopes`.
  const provider = new ScriptedProvider((request, index) =>
    JSON.parse(rewrite(JSON.stringify(script(request, index)))),
  );
  const agent = createAgent({ tools: parts.tools, provider, moduleRoot: root });
  const result = await agent.run({ context: parts.context, output: parts.output, maxTurns: 6 });
  return { provider, output: result.output, state: result.state };
}

describe('a saved Idea using `_delegate`/`_scopes` runs like its `_module`/`_imports` twin', () => {
  let seedsRoot: string;
  let actsRoot: string;

  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (const name of await fs.readdir(MUSIC_IDEAS)) {
      files[name] = await fs.readFile(path.join(MUSIC_IDEAS, name), 'utf8');
    }
    seedsRoot = await makeModuleRoot(files);
    actsRoot = await makeModuleRoot(
      Object.fromEntries(Object.entries(files).map(([name, text]) => [name, toActs(text)])),
    );
  });
  afterAll(async () => {
    await removeRoot(seedsRoot);
    await removeRoot(actsRoot);
  });

  it('R-DEL-1 R-SCOPE-1 R-SCOPE-3 the producer → composer → sound designer run: same requests, same results, same output', async () => {
    const acts = await fs.readFile(path.join(actsRoot, 'producer.json'), 'utf8');
    // The twin really is written in the newer vocabulary: fixed and model-chosen `_scopes`, `_delegate`.
    expect(acts).toContain('"_delegate": { "const": "composer.json" }');
    expect(acts).toContain('"_scopes": { "type": "array", "items": { "enum": ["input"] } }');
    expect(acts).not.toMatch(/"_module"|"_imports"/);
    expect(await fs.readFile(path.join(actsRoot, 'composer.json'), 'utf8')).toMatch(
      /"_scopes": \{\s*"const": \[\s*"state"\s*\]/,
    );

    const seedsRun = await runProducer(seedsRoot, (json) => json);
    const actsRun = await runProducer(actsRoot, toActs);

    expect(seedsRun.output).toMatchObject({ title: 'Grey Mornings EP' });
    expect(actsRun.output).toEqual(seedsRun.output);
    // Three levels, eight requests: producer 2, composer 3, sound designer 2 (for the composer) + 1.
    expect(seedsRun.provider.requests).toHaveLength(8);
    expect(actsRun.provider.requests).toHaveLength(8);
    const actsSent = sentRequests(actsRun.provider.requests);
    // The model was offered `_scopes` (the producer's sound designer lets it choose) and wrote it.
    expect(actsSent.some((request) => request.includes('"_scopes":{"type":"array"'))).toBe(true);
    expect(actsSent.some((request) => request.includes('\\"_scopes\\": [\\"input\\"]'))).toBe(true);
    expect(actsSent.join('\n')).not.toContain('_imports');
    expect(actsSent.map(toSeeds)).toEqual(sentRequests(seedsRun.provider.requests));
    expect(stateMessages(actsRun.state).map(toSeeds)).toEqual(stateMessages(seedsRun.state));
  });
});

describe('a delegated call: its clean room (R-DEL-1, R-SCOPE-3)', () => {
  let root: string;
  const writer = {
    name: 'writer',
    description: 'Writes a paragraph.',
    context: [
      { type: 'system', text: 'DELEGATE-OWN-SYSTEM' },
      { type: 'data', kind: 'style', data: { voice: 'DELEGATE-OWN-STYLE' } },
      {
        type: 'input',
        input: { topic: 'DELEGATE-EXAMPLE-INPUT' },
        schema: { type: 'object', properties: { topic: { type: 'string' } } },
      },
    ],
    schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  };
  const parent: Message[] = [
    { type: 'system', text: 'PARENT-SYSTEM-SECRET' },
    { type: 'data', kind: 'notes', data: { note: 'PARENT-NOTES' } },
    { type: 'text', text: 'PARENT-TEXT-SECRET' },
    { type: 'state', state: { step: 'PARENT-STATE' } },
  ];

  beforeAll(async () => {
    root = await makeModuleRoot({ 'writer.json': writer });
  });
  afterAll(() => removeRoot(root));

  async function sent(
    properties: Record<string, unknown>,
    call: Record<string, unknown> = {},
  ): Promise<{ text: string; result: ResultMessage }> {
    const provider = new ScriptedProvider([{ text: 'A paragraph.' }]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [tool('write', { topic: { type: 'string' }, ...properties }, ['topic'])],
    });
    const [result] = await executor.call({ _tool: 'write', topic: 'owls', ...call }, parent);
    const request = provider.requests[0];
    const text = request?.messages.map((message) => message.content).join('\n') ?? '';
    return { text, result: result as ResultMessage };
  }

  it("R-SCOPE-3 the scoped parent messages are appended to the delegate's own context, before the params", async () => {
    const { text, result } = await sent({
      _delegate: { const: 'writer.json' },
      _scopes: { const: ['state', 'notes'] },
    });
    expect(result.output).toEqual({ text: 'A paragraph.' });
    const order = [
      'Writes a paragraph.',
      'DELEGATE-OWN-SYSTEM',
      'DELEGATE-OWN-STYLE',
      'PARENT-NOTES',
      'PARENT-STATE',
      '"topic": "owls"',
    ].map((marker) => text.indexOf(marker));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((left, right) => left - right)).toEqual(order);
    // Nothing else of the parent crosses; the delegate's example input is replaced by the params.
    expect(text).not.toContain('PARENT-SYSTEM-SECRET');
    expect(text).not.toContain('PARENT-TEXT-SECRET');
    expect(text).not.toContain('DELEGATE-EXAMPLE-INPUT');
  });

  it('R-DEL-1 R-SCOPE-1 the same request as the `_module` / `_imports` twin', async () => {
    const acts = await sent({
      _delegate: { const: 'writer.json' },
      _scopes: { const: ['state', 'notes'] },
    });
    const seeds = await sent({
      _module: { const: 'writer.json' },
      _imports: { const: ['state', 'notes'] },
    });
    expect(acts.text).toBe(seeds.text);
    expect(acts.result).toEqual(seeds.result);
  });

  it('R-SCOPE-1 model-chosen `_scopes`: the Call picks from the enum; others never cross', async () => {
    const choose = {
      _delegate: { const: 'writer.json' },
      _scopes: { type: 'array', items: { enum: ['state', 'notes'] } },
    };
    const notesOnly = await sent(choose, { _scopes: ['notes'] });
    expect(notesOnly.text).toContain('PARENT-NOTES');
    expect(notesOnly.text).not.toContain('PARENT-STATE');
    // A Call written by code may use the seed name for the same field.
    const bySeedName = await sent(choose, { _imports: ['notes'] });
    expect(bySeedName.text).toBe(notesOnly.text);
    const none = await sent(choose);
    expect(none.text).not.toContain('PARENT-NOTES');
    expect(none.text).not.toContain('PARENT-STATE');
  });

  it('R-SCOPE-1 a kind outside the `_scopes` enum fails the Call with IMPORT_NOT_ALLOWED naming `_scopes`', async () => {
    const choose = {
      _delegate: { const: 'writer.json' },
      _scopes: { type: 'array', items: { enum: ['state', 'notes'] } },
    };
    const { result } = await sent(choose, { _scopes: ['secret'] });
    expect(result.error?.code).toBe('IMPORT_NOT_ALLOWED');
    expect(result.error?.message).toContain('Choose `_scopes` only from the allowed kinds');
    const notAList = await sent(choose, { _scopes: 'notes' });
    expect(notAList.result.error?.message).toContain(
      'writes "_scopes": "notes", but _scopes must be a list of kind names',
    );
    // The seed twin keeps naming `_imports`.
    const seeds = await sent(
      {
        _module: { const: 'writer.json' },
        _imports: { type: 'array', items: { enum: ['state'] } },
      },
      { _imports: ['secret'] },
    );
    expect(seeds.result.error?.message).toContain('Choose `_imports` only from the allowed kinds');
  });

  it('R-DEL-2 a tool whose `_module` and `_delegate` differ fails with InvalidIdeaError, the delegate never runs', async () => {
    const { result, text } = await sent({
      _module: { const: 'writer.json' },
      _delegate: { const: 'other.json' },
    });
    expect(result.error?.code).toBe('INVALID_IDEA');
    expect(result.error?.message).toContain('tool "write" writes both "_module"');
    expect(text).toBe('');
  });

  it('R-DEL-1 an anonymous `_delegate` starts from an empty context with the scoped messages', async () => {
    const { text, result } = await sent({
      _delegate: { const: 'anonymous' },
      _output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      _scopes: { const: ['notes'] },
    });
    expect(result.output).toEqual({ text: 'A paragraph.' });
    expect(text).toContain('PARENT-NOTES');
    expect(text).not.toContain('DELEGATE-OWN-SYSTEM');
    expect(text).not.toContain('PARENT-STATE');
  });
});
