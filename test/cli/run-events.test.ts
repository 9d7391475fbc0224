import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunEvent } from 'ideact';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../support/chat-completions-server';
import { runCli } from './run-cli';

/**
 * `ideact run` shows the run's events (issue 16 item 8): `--json` prints them as JSON lines, `--trace`
 * writes the OpenTelemetry spans as JSON lines, and a stderr that is no terminal gets one plain line
 * per meaningful event. The run: a coordinator calls a plain module (a sub-request) and a nested
 * agent, against the local Chat Completions server.
 */

const summarizeTool = {
  type: 'object',
  description: 'Summarize a text.',
  properties: {
    _tool: { const: 'summarize' },
    _module: { const: 'summarize.json' },
    text: { type: 'string' },
  },
  required: ['_tool', 'text'],
};

function vessel(tools: object[]): object {
  return {
    type: 'object',
    properties: {
      calls: { type: 'array', items: { anyOf: tools } },
      output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  };
}

const IDEAS: Record<string, object> = {
  'coordinator.json': {
    name: 'coordinator',
    context: [{ type: 'system', text: 'You coordinate.' }],
    schema: vessel([
      summarizeTool,
      {
        type: 'object',
        description: 'Ask the helper agent.',
        properties: {
          _tool: { const: 'helper' },
          _module: { const: 'helper.json' },
          question: { type: 'string' },
        },
        required: ['_tool', 'question'],
      },
    ]),
  },
  'summarize.json': {
    name: 'summarize',
    context: [
      { type: 'system', text: 'You summarize.' },
      {
        type: 'input',
        input: { text: 'example' },
        schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ],
    schema: {
      type: 'object',
      properties: { summary: { type: 'string' } },
      required: ['summary'],
      additionalProperties: false,
    },
  },
  'helper.json': {
    name: 'helper',
    context: [
      { type: 'system', text: 'You help.' },
      {
        type: 'input',
        input: { question: 'example' },
        schema: {
          type: 'object',
          properties: { question: { type: 'string' } },
          required: ['question'],
        },
      },
    ],
    schema: vessel([summarizeTool]),
  },
};

/** Answers by the request's system message, so the parallel Calls' requests may come in any order. */
function reply(request: RecordedRequest): ScriptedReply {
  const messages = request.body.messages as Array<{ content: string }>;
  const prompt = messages.map((message) => message.content).join('\n');
  const usage = { promptTokens: 120, completionTokens: 30 };
  if (prompt.includes('You summarize.')) return { json: { summary: 'short' }, usage };
  if (prompt.includes('You help.')) return { json: { calls: [], output: 'helped' }, usage };
  const firstTurn = !prompt.includes('helped');
  return firstTurn
    ? {
        json: {
          calls: [
            { _tool: 'summarize', text: 'a long text' },
            { _tool: 'helper', question: 'why?' },
          ],
          output: null,
        },
        usage,
      }
    : { json: { calls: [], output: 'all done' }, usage };
}

let workDir: string;
let server: ChatCompletionsServer;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-events-'));
  for (const [name, idea] of Object.entries(IDEAS)) {
    await fs.writeFile(path.join(workDir, name), JSON.stringify(idea));
  }
  server = await startChatCompletionsServer(reply);
});
afterEach(async () => {
  await server.close();
  await fs.rm(workDir, { recursive: true, force: true });
});

function runCoordinator(extra: string[], env: Record<string, string> = {}) {
  return runCli(
    ['run', 'coordinator.json', '--provider', 'openai', '--model', 'test-model', ...extra],
    { cwd: workDir, env: { OPENAI_BASE_URL: server.baseURL, ...env } },
  );
}

describe('ideact run --json', () => {
  it('prints every event as one JSON line on stdout: run-start first, run-end with the output last', async () => {
    const result = await runCoordinator(['--json']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as RunEvent);
    expect(events.length).toBeGreaterThan(10);
    for (const event of events) {
      expect(typeof event.runId).toBe('string');
      expect(Array.isArray(event.path)).toBe(true);
      expect(event.path.length).toBeGreaterThan(0);
      expect(typeof event.time).toBe('number');
    }
    const first = events[0]!;
    const last = events[events.length - 1]!;
    expect(first.type).toBe('run-start');
    expect(last).toMatchObject({
      type: 'run-end',
      runId: first.runId,
      path: [first.runId],
      stopReason: 'output',
      output: 'all done',
    });
    const times = events.map((event) => event.time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Every event, deltas included: the streamed text is on stdout too.
    expect(events.some((event) => event.type === 'solution-delta')).toBe(true);
    expect(stdoutHasOnlyEvents(result.stdout)).toBe(true);
    expect(result.stderr).toContain('ideact: stopped: output after 2 turn(s)');
  });

  it('shows each Call start and end, and the nested run under its Call (path)', async () => {
    const events = (await runCoordinator(['--json'])).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    const rootId = events[0]!.runId;
    const starts = events.filter((event) => event.type === 'call-start' && event.runId === rootId);
    const ends = events.filter((event) => event.type === 'call-end' && event.runId === rootId);
    expect(starts.map((event) => event.type === 'call-start' && event.tool).sort()).toEqual([
      'helper',
      'summarize',
    ]);
    expect(ends).toHaveLength(2);
    const helper = starts.find((event) => event.type === 'call-start' && event.tool === 'helper');
    const helperCallId = helper?.type === 'call-start' ? helper.callId : '';
    const nestedStart = events.find(
      (event) => event.type === 'run-start' && event.runId !== rootId,
    );
    expect(nestedStart?.path.slice(0, 2)).toEqual([rootId, helperCallId]);
    expect(nestedStart?.path).toHaveLength(3);
    const helperEnd = ends.find((event) => event.type === 'call-end' && event.tool === 'helper');
    expect(helperEnd).toMatchObject({ output: 'helped' });
  });
});

describe('ideact run --trace FILE', () => {
  interface SpanLine {
    name: string;
    traceId: string;
    spanId: string;
    parentSpanId: string | null;
    kind: string;
    startTimeUnixNano: string;
    endTimeUnixNano: string;
    attributes: Record<string, unknown>;
    status: { code: string };
    events: unknown[];
  }

  it('writes the spans as JSON lines: invoke_agent → chat and execute_tool, nested runs under their Call', async () => {
    const file = path.join(workDir, 'spans.jsonl');
    const result = await runCoordinator(['--trace', file]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toBe('all done');
    const spans = (await fs.readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SpanLine);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: SpanLine | undefined) =>
      span?.parentSpanId === null || span === undefined ? undefined : byId.get(span.parentSpanId);
    const childrenOf = (span: SpanLine | undefined) =>
      spans.filter((child) => span !== undefined && child.parentSpanId === span.spanId);

    const roots = spans.filter((span) => span.parentSpanId === null);
    expect(roots.map((span) => span.name)).toEqual(['invoke_agent']);
    const root = roots[0]!;
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root.traceId]));
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.usage.input_tokens': 480, // 2 turns + the sub-request + the nested run's turn
      'ideact.stop_reason': 'output',
    });
    // The root run's two turns are its children; each Call's execute_tool span is the root's child,
    // or the child of the chat span of the turn that was still streaming when the Call started (eager).
    const chats = childrenOf(root).filter((span) => span.name === 'chat test-model');
    expect(chats).toHaveLength(2);
    const underRoot = (span: SpanLine): boolean => {
      const parent = parentOf(span);
      return parent === root || (parent !== undefined && chats.includes(parent));
    };
    const summarize = spans.find((span) => span.name === 'execute_tool summarize')!;
    const helper = spans.find((span) => span.name === 'execute_tool helper')!;
    expect(underRoot(summarize)).toBe(true);
    expect(underRoot(helper)).toBe(true);
    expect(summarize.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'summarize',
      'gen_ai.tool.call.id': expect.stringMatching(/^\d+:\d$/),
    });
    // The plain module's sub-request is a chat span under its Call; the nested agent's run is an
    // invoke_agent span under its Call, with its own chat span.
    expect(childrenOf(summarize).map((span) => span.name)).toEqual([
      expect.stringMatching(/^chat/),
    ]);
    const nested = spans.find((span) => span.name === 'invoke_agent helper');
    expect(parentOf(nested)).toBe(helper);
    expect(childrenOf(nested).map((span) => span.name)).toEqual(['chat test-model']);
    expect(spans).toHaveLength(8);

    const chat = chats[0]!;
    expect(chat).toMatchObject({ kind: 'CLIENT', status: { code: 'UNSET' }, events: [] });
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'test-model',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
    });
    expect(BigInt(chat.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(chat.startTimeUnixNano));
  });

  it('a --trace file in a missing directory is a usage error before anything runs', async () => {
    const result = await runCoordinator(['--trace', path.join(workDir, 'nope', 'spans.jsonl')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--trace: the directory of');
    expect(server.requests).toHaveLength(0);
  });

  it('loads the OpenTelemetry SDK only with --trace', async () => {
    const preload = path.join(workDir, 'list-packages.js');
    await fs.writeFile(
      preload,
      `process.on('exit', () => {
         const names = new Set();
         for (const file of Object.keys(require.cache)) {
           const match = file.match(/node_modules[\\\\/]((@[^\\\\/]+[\\\\/])?[^\\\\/]+)/);
           if (match) names.add(match[1].replace('\\\\', '/'));
         }
         require('node:fs').writeFileSync(process.env.PACKAGES_FILE, JSON.stringify([...names]));
       });`,
    );
    const loaded = async (extra: string[]): Promise<string[]> => {
      const list = path.join(workDir, `packages-${extra.length}.json`);
      const result = await runCoordinator(extra, {
        NODE_OPTIONS: `--require ${preload}`,
        PACKAGES_FILE: list,
      });
      expect(result.code).toBe(0);
      return JSON.parse(await fs.readFile(list, 'utf8')) as string[];
    };
    const plain = await loaded([]);
    expect(plain).toContain('@opentelemetry/api');
    expect(plain).not.toContain('@opentelemetry/sdk-trace-node');
    const traced = await loaded(['--trace', path.join(workDir, 'spans.jsonl')]);
    expect(traced).toContain('@opentelemetry/sdk-trace-node');
  });
});

describe('ideact run --json --trace and Ctrl-C', () => {
  it('the events end with run-end (aborted), the trace file is written, the state saved, exit 130', async () => {
    const slow = await startChatCompletionsServer([
      { json: { calls: [], output: 'late' }, delayMs: 20_000 },
    ]);
    try {
      const file = path.join(workDir, 'spans.jsonl');
      const result = await runCli(
        ['run', 'coordinator.json', '--provider', 'openai', '--json', '--trace', file],
        {
          cwd: workDir,
          env: { OPENAI_BASE_URL: slow.baseURL },
          onSpawn: (child) => {
            const poll = setInterval(() => {
              if (slow.requests.length > 0) {
                clearInterval(poll);
                child.kill('SIGINT');
              }
            }, 20);
            child.on('close', () => clearInterval(poll));
          },
        },
      );
      expect(result.code).toBe(130);
      const events = result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as RunEvent);
      expect(events[0]!.type).toBe('run-start');
      expect(events[events.length - 1]).toMatchObject({ type: 'run-end', stopReason: 'aborted' });
      expect(result.stderr).toContain('interrupted; stopping after the current step');
      expect(result.stderr).toContain('state saved to coordinator.state.json');
      const spans = (await fs.readFile(file, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { name: string; attributes: Record<string, unknown> });
      expect(spans.find((span) => span.name === 'invoke_agent')?.attributes).toMatchObject({
        'ideact.stop_reason': 'aborted',
      });
    } finally {
      await slow.close();
    }
  });
});

describe('ideact run progress when stderr is not a terminal', () => {
  it('prints one line per run start/end, request end (tokens) and Call start/end, indented by depth', async () => {
    const result = await runCoordinator([]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toBe('all done');
    const lines = result.stderr.split('\n');
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    const rootStart = at(/^ideact: run run_\w+ started$/);
    const firstChat = at(/^ideact: {3}chat test-model · 150 tokens \(120 in, 30 out\) · \d+\.\ds$/);
    const summarizeStart = at(/^ideact: {3}call summarize \[\d+:\d\] started/);
    const summarizeChat = at(/^ideact: {5}chat test-model · 150 tokens/);
    const summarizeEnd = at(/^ideact: {3}call summarize \[\d+:\d\] done · \d+\.\ds$/);
    const nestedStart = at(/^ideact: {5}run helper\.json run_\w+ started$/);
    const nestedChat = at(/^ideact: {7}chat test-model · 150 tokens/);
    const nestedEnd = at(/^ideact: {5}run run_\w+ ended: output · 1 turn\(s\) · 150 tokens/);
    const helperEnd = at(/^ideact: {3}call helper \[\d+:\d\] done/);
    const rootEnd = at(/^ideact: run run_\w+ ended: output · 2 turn\(s\) · 600 tokens/);
    const summary = at(/^ideact: stopped: output after 2 turn\(s\), 600 tokens, \d+\.\ds$/);
    for (const index of [firstChat, summarizeChat, nestedStart, nestedChat, nestedEnd])
      expect(index).toBeGreaterThan(-1);
    expect(rootStart).toBeGreaterThan(-1);
    expect(firstChat).toBeGreaterThan(rootStart);
    expect(summarizeStart).toBeGreaterThan(rootStart); // eager: may start before the turn's chat ended
    expect(summarizeEnd).toBeGreaterThan(summarizeStart);
    expect(nestedEnd).toBeGreaterThan(nestedStart);
    expect(helperEnd).toBeGreaterThan(nestedEnd);
    expect(rootEnd).toBeGreaterThan(helperEnd);
    expect(summary).toBe(rootEnd + 1);
    expect(result.stderr).not.toContain('\u001b['); // no cursor movement outside a terminal
  });
});

/** True when every non-empty stdout line is a JSON object with a `type` (no pretty-printed output). */
function stdoutHasOnlyEvents(stdout: string): boolean {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .every((line) => {
      const value = JSON.parse(line) as { type?: unknown };
      return typeof value.type === 'string';
    });
}
