import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Executor,
  type Idea,
  type Message,
  type ModuleRunInput,
  type ModuleRunner,
  type ResultMessage,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { makeModuleRoot, removeRoot, summarizeIdea, tool } from './executor-fixtures';

function result(messages: Message[]): ResultMessage {
  const first = messages[0];
  if (first?.type !== 'result') throw new Error('expected a result message first');
  return first;
}

/** An Idea whose schema is a Vessel offering one module tool `next` → `target`. */
function chainIdea(name: string, target: string): Idea {
  const next = tool('next', { _module: { const: target } });
  return {
    name,
    context: [{ type: 'system', text: `I am ${name}.` }],
    schema: {
      type: 'object',
      properties: { calls: { type: 'array', items: { anyOf: [next] } }, output: {} },
      required: ['calls', 'output'],
    },
  };
}

/** The tools a Vessel schema offers (what a nested agent would read). */
function vesselTools(idea: Idea): ToolSchema[] {
  const calls = idea.schema.properties?.calls;
  const items = calls && !Array.isArray(calls.items) ? calls.items : undefined;
  return (items?.anyOf ?? []) as ToolSchema[];
}

let root: string;
let outside: string;
beforeAll(async () => {
  root = await makeModuleRoot({
    'summarize.json': summarizeIdea,
    'broken.json': '{ "context": [ }',
    'no-schema.json': { context: [{ type: 'system', text: 'no schema here' }] },
    'a.json': chainIdea('a', 'b.json'),
    'b.json': chainIdea('b', 'a.json'),
    'c.json': chainIdea('c', 'd.json'),
    'd.json': chainIdea('d', 'e.json'),
    'e.json': summarizeIdea,
  });
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-outside-')));
  await fs.writeFile(path.join(outside, 'secret.json'), JSON.stringify(summarizeIdea));
  await fs.symlink(path.join(outside, 'secret.json'), path.join(root, 'link.json'));
});
afterAll(async () => {
  await removeRoot(root);
  await removeRoot(outside);
});

describe('Executor: bad module input becomes a typed result error (R-MOD-6, R-CALL-5)', () => {
  const cases: Array<[string, () => string, string, string[]]> = [
    [
      'a path escaping with ..',
      () => '../secret.json',
      'MODULE_PATH',
      ['../secret.json', 'outside the module root'],
    ],
    [
      'an absolute path outside the root',
      () => path.join(outside, 'secret.json'),
      'MODULE_PATH',
      ['secret.json'],
    ],
    ['a symlink out of the root', () => 'link.json', 'MODULE_PATH', ['link.json', 'symbolic link']],
    ['a file that is not .json', () => 'notes.txt', 'MODULE_PATH', ['notes.txt', '.json']],
    ['a missing file', () => 'nowhere.json', 'MODULE_NOT_FOUND', ['nowhere.json']],
    ['invalid JSON', () => 'broken.json', 'INVALID_IDEA', ['broken.json', 'not valid JSON']],
    [
      'an Idea without schema',
      () => 'no-schema.json',
      'INVALID_IDEA',
      ['no-schema.json', '/schema'],
    ],
    [
      'a URL not allow-listed',
      () => 'https://evil.example.com/idea.json',
      'MODULE_URL',
      ['evil.example.com', 'allowedModuleHosts'],
    ],
  ];

  it.each(cases)('%s', async (_label, reference, code, mentions) => {
    const provider = new ScriptedProvider([]);
    const executor = new Executor({
      provider,
      moduleRoot: root,
      tools: [tool('delegate', { text: { type: 'string' }, _module: { const: reference() } })],
    });
    const messages = await executor.call({ _tool: 'delegate', text: 'hi' }, []);
    const failed = result(messages);
    expect(failed.call).toEqual({ _tool: 'delegate', text: 'hi' });
    expect(failed.error?.code).toBe(code);
    for (const mention of mentions) expect(failed.error?.message).toContain(mention);
    expect(provider.requests).toHaveLength(0);
  });

  it('an anonymous latent module without _output tells to add @Output/_output', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [tool('vague', { _module: { const: 'anonymous' } })],
    });
    const failed = result(await executor.call({ _tool: 'vague' }, []));
    expect(failed.error?.code).toBe('MISSING_OUTPUT_SCHEMA');
    expect(failed.error?.message).toContain('"vague"');
    expect(failed.error?.message).toContain('@Output');
  });
});

describe('Executor: nested modules through a custom ModuleRunner (R-MOD-5 groundwork)', () => {
  /**
   * A runner like the agent loop's: when the module offers tools, it builds a child executor at the
   * module's depth and chain and runs the module's first tool; otherwise it answers directly.
   */
  function nestingRunner(getExecutor: () => Executor, trace: ModuleRunInput[]): ModuleRunner {
    return {
      async run(input) {
        trace.push(input);
        const tools = vesselTools(input.module.idea);
        if (tools.length === 0) return { summary: `leaf at depth ${input.depth}` };
        const child = getExecutor().child({ tools, depth: input.depth, chain: input.chain });
        const run = await child.run({ _tool: 'next' }, input.context, { signal: input.signal });
        if (run.error) throw run.error;
        return run.output;
      },
    };
  }

  function build(maxModuleDepth?: number): { executor: Executor; trace: ModuleRunInput[] } {
    const trace: ModuleRunInput[] = [];
    const executor: Executor = new Executor({
      provider: new ScriptedProvider([]),
      moduleRoot: root,
      maxModuleDepth,
      tools: [
        tool('startA', { _module: { const: 'a.json' } }),
        tool('startC', { _module: { const: 'c.json' } }),
      ],
      moduleRunner: nestingRunner(() => executor, trace),
    });
    return { executor, trace };
  }

  it('runs nested modules with growing depth and chain', async () => {
    const { executor, trace } = build();
    const done = result(await executor.call({ _tool: 'startC' }, []));
    expect(done.output).toEqual({ summary: 'leaf at depth 3' });
    expect(trace.map((input) => input.depth)).toEqual([1, 2, 3]);
    expect(trace[2]?.chain.map((id) => path.basename(id))).toEqual(['c.json', 'd.json', 'e.json']);
  });

  it('a cycle fails with MODULE_CYCLE naming the chain a.json → b.json → a.json', async () => {
    const { executor } = build();
    const failed = result(await executor.call({ _tool: 'startA' }, []));
    expect(failed.error?.code).toBe('MODULE_CYCLE');
    expect(failed.error?.message).toContain('a.json → b.json → a.json');
  });

  it('going deeper than maxModuleDepth fails with MODULE_DEPTH', async () => {
    const { executor } = build(2);
    const failed = result(await executor.call({ _tool: 'startC' }, []));
    expect(failed.error?.code).toBe('MODULE_DEPTH');
    expect(failed.error?.message).toContain('depth 3');
    expect(failed.error?.message).toContain('c.json → d.json → e.json');
  });
});
