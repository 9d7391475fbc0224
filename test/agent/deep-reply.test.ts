import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createAgent,
  FileRunStore,
  findJsonDepthViolation,
  InvalidSolutionError,
  MAX_JSON_DEPTH,
  OpenAIProvider,
  parseReplyText,
  runRequest,
  type Agent,
  type AgentResult,
  type JSONSchema,
  type Message,
  type Provider,
  type ProviderChunk,
  type ProviderRequest,
  type ProviderResponse,
  type RunEvent,
  type RunStore,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { serversForThisFile } from '../support/chat-completions-server';

/**
 * Issue 27 item 4 (R-REQ-3, docs/protocol.md "Depth limit"): a model reply nested deeper than
 * MAX_JSON_DEPTH is checked when it is parsed, before anything walks it: the repair loop shows the
 * model the JSON path and the limit, and when repairs run out the run fails with
 * InvalidSolutionError. Never a RangeError, never a saved state that cannot be loaded again.
 */

/** `{"a":{"a":…1…}}`, `levels` objects deep, as text. */
function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

const countTool: ToolSchema = {
  type: 'object',
  description: 'Counts the leaves of a tree.',
  properties: { _tool: { const: 'count' }, tree: { type: 'object' } },
  required: ['_tool', 'tree'],
};

/** A Vessel calling `count` with a tree `levels` deep (the reply nests `levels` + 3 levels). */
function deepVesselText(levels: number): string {
  return `{"calls":[{"_tool":"count","tree":${nestedText(levels)}}],"output":null}`;
}

/** Where the too deep object of {@link deepVesselText} is, as the repair names it. */
function deepPath(levels: number): string {
  // Levels 1-4 are the Vessel, `calls`, the Call and `tree`: the first object past the limit
  // (level MAX_JSON_DEPTH + 1) is `tree` followed by MAX_JSON_DEPTH - 3 `a`s.
  expect(levels).toBeGreaterThan(MAX_JSON_DEPTH);
  const segments = ['calls', '0', 'tree', ...Array<string>(MAX_JSON_DEPTH - 3).fill('a')];
  const head = segments.slice(0, 6).map((segment) => `/${segment}`);
  const tail = segments.slice(-3).map((segment) => `/${segment}`);
  return `${head.join('')}/…(${segments.length - 9} more)…${tail.join('')}`;
}

const fine = '{"calls":[],"output":"ok"}';

/**
 * A custom Provider that answers with text, as a user's own backend would: `stream()` yields it in
 * pieces (the agent's eager calls and partial JSON read them), `generate()` parses it with the
 * public `parseReplyText`. It records what it was sent.
 */
class TextProvider implements Provider {
  readonly name = 'text';
  readonly requests: ProviderRequest[] = [];
  constructor(private readonly replies: string[]) {}

  private next(request: ProviderRequest): string {
    this.requests.push(request);
    const reply = this.replies[this.requests.length - 1];
    if (reply === undefined) throw new Error(`no reply #${this.requests.length}`);
    return reply;
  }

  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const text = this.next(request);
    return { options: [parseReplyText(text)], usage: usage() };
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderChunk> {
    const text = this.next(request);
    for (let start = 0; start < text.length; start += 500) {
      yield { type: 'text-delta', delta: text.slice(start, start + 500) };
    }
    yield { type: 'finish', finishReason: 'stop' };
    yield { type: 'usage', usage: usage() };
  }
}

function usage(): ProviderResponse['usage'] {
  return { inputTokens: 1, outputTokens: 1, cachedTokens: 0 };
}

/** The messages each request of a provider received. */
type Sent = Array<Array<{ role: string; content: string }>>;

interface Backend {
  name: string;
  /** A provider answering with `replies` (texts), and what it was sent. */
  create(replies: string[]): Promise<{ provider: Provider; sent: () => Sent }>;
}

const serve = serversForThisFile();

const backends: Backend[] = [
  {
    name: 'ScriptedProvider (a parsed value)',
    async create(replies) {
      const provider = new ScriptedProvider(
        replies.map((reply) => JSON.parse(reply) as unknown),
        // the scripted provider streams (eager calls on) in pieces, like a model writing
        { stream: { chunkSize: 700 } },
      );
      return { provider, sent: () => provider.requests.map((request) => request.messages) };
    },
  },
  {
    name: 'a custom provider of text (parseReplyText, streamed)',
    async create(replies) {
      const provider = new TextProvider(replies);
      return { provider, sent: () => provider.requests.map((request) => request.messages) };
    },
  },
  {
    name: 'OpenAIProvider, json_schema mode (the free-form tree travels as JSON text)',
    async create(replies) {
      const server = await serve(
        replies.map((reply) => ({ text: strictForm(reply), chunkSize: 4096 })),
      );
      const provider = new OpenAIProvider({
        apiKey: 'sk-test',
        baseURL: server.baseURL,
        model: 'test-model',
        maxRetries: 0,
        env: {},
      });
      return { provider, sent: () => sentMessages(server.requests) };
    },
  },
  {
    name: 'OpenAIProvider, json_object mode',
    async create(replies) {
      const server = await serve(replies.map((reply) => ({ text: reply, chunkSize: 4096 })));
      const provider = new OpenAIProvider({
        apiKey: 'sk-test',
        baseURL: server.baseURL,
        model: 'test-model',
        mode: 'json_object',
        maxRetries: 0,
        env: {},
      });
      return { provider, sent: () => sentMessages(server.requests) };
    },
  },
];

/** A reply as strict json_schema mode writes it: free-form values (the tree) as JSON-encoded text. */
function strictForm(reply: string): string {
  const value = JSON.parse(reply) as { calls: Array<Record<string, unknown>>; output: unknown };
  return JSON.stringify({
    calls: value.calls.map((call) => ({
      _reasoningForCall: null,
      ...call,
      tree: JSON.stringify(call.tree),
    })),
    output: value.output,
  });
}

function sentMessages(requests: Array<{ body: Record<string, unknown> }>): Sent {
  return requests.map((request) => request.body.messages as Sent[number]);
}

let directory: string;
const stores: FileRunStore[] = [];
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-deep-reply-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await fs.rm(directory, { recursive: true, force: true });
});

function agentOf(provider: Provider, store: RunStore | undefined): Agent {
  return createAgent({
    tools: [countTool],
    activities: [{ count: () => 1 }],
    provider,
    ...(store === undefined ? {} : { store }),
  });
}

/** Settles a promise into its value or its error, so a RangeError is seen and named, not thrown. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error);
}

describe.each([1_500, 3_000])('a reply nested %i levels deep (issue 27 item 4)', (levels) => {
  describe.each(backends)('from $name', (backend) => {
    describe.each([
      ['a FileRunStore', true],
      ['no store', false],
    ])('with %s', (_label, withStore) => {
      const newStore = (): FileRunStore | undefined => {
        if (!withStore) return undefined;
        const store = new FileRunStore({ dir: directory });
        stores.push(store);
        return store;
      };

      it('is sent back for repair naming the JSON path and the limit; the repaired run ends, loads and resumes', async () => {
        const { provider, sent } = await backend.create([deepVesselText(levels), fine, fine]);
        const store = newStore();
        const agent = agentOf(provider, store);
        const outcome = await settle(agent.run({ task: 'Count the leaves.' }));
        expect(describeError(outcome.error)).toBe('undefined');
        const result = outcome.value as AgentResult;
        expect(result.stopReason).toBe('output');
        expect(result.output).toBe('ok');

        // (json_object mode appends the schema as a last system message)
        const repair = sent()[1]!.filter((message) => message.role !== 'system');
        expect(repair.at(-1)!.role).toBe('user');
        expect(repair.at(-1)!.content).toContain(
          `${deepPath(levels)}: is nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep; write flatter JSON`,
        );
        // the model sees its own reply before the repair request
        expect(repair.at(-2)!.role).toBe('assistant');
        expect(repair.at(-2)!.content.length).toBeGreaterThan(levels * 5);
        // nothing that deep reached the state
        expect(findJsonDepthViolation(result.state)).toBeUndefined();

        if (store !== undefined) {
          const loaded = await store.load(result.runId);
          expect(loaded?.status).toBe('completed');
          expect(loaded?.state.nodes).toEqual(result.state.nodes);
          // a finished run goes on with a new task
          const resumed = await settle(
            agentOf(provider, store).resume(result.runId, { task: 'Again.' }),
          );
          expect(describeError(resumed.error)).toBe('undefined');
          expect(resumed.value?.output).toBe('ok');
        }
      });

      it('fails with InvalidSolutionError when repairs run out; the failed run loads and resumes', async () => {
        const deep = deepVesselText(levels);
        const { provider, sent } = await backend.create([deep, deep, deep, fine]);
        const store = newStore();
        const agent = agentOf(provider, store);
        const run = agent.start({ task: 'Count the leaves.' });
        const outcome = await settle(run.result());
        expect(InvalidSolutionError.isInstance(outcome.error)).toBe(true);
        const error = outcome.error as InvalidSolutionError;
        expect(error.code).toBe('INVALID_SOLUTION');
        expect(error.attempts).toBe(3);
        expect(error.issues).toEqual([
          {
            path: deepPath(levels),
            message: `is nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep; write flatter JSON`,
          },
        ]);
        expect(error.message).toContain(`MAX_JSON_DEPTH (${MAX_JSON_DEPTH})`);
        expect(sent()).toHaveLength(3);

        if (store !== undefined) {
          const loaded = await store.load(run.id);
          expect(loaded?.status).toBe('failed');
          expect(findJsonDepthViolation(loaded?.state)).toBeUndefined();
        }
        // the failed step runs again, from the store in a new agent (without a store, in the agent
        // that ran it); the model's next reply is fine
        const resumer = store === undefined ? agent : agentOf(provider, store);
        const resumed = await settle(resumer.resume(run.id));
        expect(describeError(resumed.error)).toBe('undefined');
        expect(resumed.value?.output).toBe('ok');
        if (store !== undefined) expect((await store.load(run.id))?.status).toBe('completed');
      });
    });
  });
});

describe('a reply 10,000 levels deep for a recursive schema, which the validator walks as deep as the value (issue 27 item 4)', () => {
  const tree: JSONSchema = {
    $ref: '#/$defs/node',
    $defs: { node: { type: 'object', properties: { a: { $ref: '#/$defs/node' } } } },
  };
  const deep = nestedText(10_000);
  const context: Message[] = [{ type: 'text', text: 'Grow a tree.' }];
  const issue = {
    path: `/a/a/a/a/a/a/…(${MAX_JSON_DEPTH - 9} more)…/a/a/a`,
    message: `is nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep; write flatter JSON`,
  };

  it.each([
    [
      'ScriptedProvider (a parsed value; its own schema check skips it)',
      () => new ScriptedProvider([JSON.parse(deep), { a: {} }]),
    ],
    ['a custom provider of text', () => new TextProvider([deep, '{"a":{}}'])],
  ])('%s: repaired, the depth checked before the schema', async (_label, create) => {
    const provider = create();
    const result = await settle(runRequest({ context, schema: tree }, { provider }));
    expect(describeError(result.error)).toBe('undefined');
    expect(result.value?.solution).toEqual({ a: {} });
    expect(result.value?.repairs).toBe(1);
    const repair = provider.requests[1]!.messages.at(-1)!.content;
    expect(repair).toContain(`${issue.path}: ${issue.message}`);
  });

  it('InvalidSolutionError when repairs run out, never a RangeError', async () => {
    const provider = new TextProvider([deep]);
    const result = await settle(runRequest({ context, schema: tree }, { provider, maxRepairs: 0 }));
    expect(InvalidSolutionError.isInstance(result.error)).toBe(true);
    const error = result.error as InvalidSolutionError;
    expect(error.issues).toEqual([issue]);
    expect(error.rawText).toBe(deep);
  });
});

describe('the events of a streamed run whose model writes a reply 1,500 levels deep (issue 27 item 4)', () => {
  it('no event carries a value nested past MAX_JSON_DEPTH (the partial solution is left out); the run is repaired', async () => {
    const provider = new ScriptedProvider([JSON.parse(deepVesselText(1_500)), JSON.parse(fine)], {
      stream: { chunkSize: 2_000 },
    });
    const stream = agentOf(provider, undefined).stream({ task: 'Count the leaves.' });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    expect((await stream.result).output).toBe('ok');
    const deltas = events.filter((event) => event.type === 'solution-delta');
    expect(deltas.length).toBeGreaterThan(2);
    for (const event of events) expect(findJsonDepthViolation(event)).toBeUndefined();
    // the repaired reply's partial solutions are there
    expect(deltas.at(-1)).toMatchObject({ partial: { calls: [], output: 'ok' } });
  });
});
