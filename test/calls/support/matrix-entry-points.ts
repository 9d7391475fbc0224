/* eslint-disable @typescript-eslint/no-explicit-any -- entry points answer loose JSON (HTTP, MCP) */
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createAgent,
  createContainer,
  createMcpServer,
  createRunHandler,
  enqueueRun,
  ERROR_META_KEY,
  Executor,
  FileRunStore,
  InvalidParamsError,
  OpenAIProvider,
  startDevServer,
  startWorker,
  waitForRun,
  type Agent,
  type CallApproval,
  type EngineOptions,
  type IdeactConfig,
  type Message,
  type TypedToolReference,
} from 'ideact';
import type { ScriptedReply, RecordedRequest } from '../../support/chat-completions-server';

/**
 * The entry points of the call pipeline's matrix (issue 27, DESIGN §8): each one reaches the same
 * Tool set (test/calls/fixtures/matrix/matrix-tools.cjs) its own way, and reports what a user of
 * that entry point sees as one plain outcome, so the test can demand the same outcome everywhere.
 */

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'matrix');
export const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The fixture config module (CommonJS, shared with the CLI children). */
export const matrix = jest.requireActual<{
  MATRIX_MODEL: string;
  PROVIDER_DEFAULT_MODEL: string;
  matrixConfig(options: {
    OpenAIProvider: typeof OpenAIProvider;
    baseURL: string;
    effectsFile: string;
  }): IdeactConfig & { model: string };
}>(path.join(FIXTURES, 'matrix-tools.cjs'));

/** The tasks the fixture model recognizes (the agent loop and the worker are driven by a model). */
export const TASKS = {
  invalid: 'matrix: invalid params',
  approval: 'matrix: approval',
  model: 'matrix: model settings',
};

/** Params the module Tool rejects (its Idea says `maximum: 10`), and params it takes. */
export const INVALID_SECTION = { category: 'news', maxBullets: 99 };
export const VALID_SECTION = { category: 'sports', maxBullets: 2 };

/**
 * The fixture model behind the local Chat Completions server: the section-writer module answers
 * bullets; the agent loop's turns act out the task (a Call, then an output once results are in).
 */
export function matrixModel(request: RecordedRequest): ScriptedReply {
  const prompt = (request.body.messages as Array<{ content: unknown }>)
    .map((message) => String(message.content))
    .join('\n');
  if (prompt.includes('You write newsletter sections')) return { json: { bullets: ['a', 'b'] } };
  if (prompt.includes('## Result of')) return { json: { calls: [], output: 'done' } };
  if (prompt.includes(TASKS.invalid)) {
    // The model's reference resolves to 99 at execution time: the Vessel schema cannot see it.
    const call = { _tool: 'sectionWriter', category: 'news', maxBullets: '†input.bullets' };
    return { json: { calls: [call], output: null } };
  }
  if (prompt.includes(TASKS.approval)) {
    return { json: { calls: [{ _tool: 'deleteFile', path: 'from-the-model' }], output: null } };
  }
  if (prompt.includes(TASKS.model)) {
    return { json: { calls: [{ _tool: 'sectionWriter', ...VALID_SECTION }], output: null } };
  }
  return { status: 400, errorMessage: `matrixModel: unexpected request: ${prompt.slice(0, 200)}` };
}

/** The context the invalid-params task runs with: the model's reference reads `bullets` from it. */
export const INVALID_CONTEXT: Message[] = [{ type: 'input', input: { bullets: 99 } }];

/** What an entry point gave for a Call with invalid params: the error code and the JSON paths. */
export interface InvalidOutcome {
  code: string;
  /** Each path at fault, with its message (`/maxBullets: must be <= 10`). */
  issues: string[];
}

/** What an entry point did with a Call that needs approval. */
export type ApprovalOutcome =
  | 'held: awaiting approval'
  | 'refused: approval required'
  | 'refused: declined'
  | 'ran: the caller approved';

/** One way to reach the Tools. */
export interface EntryPoint {
  readonly name: string;
  /** Calls the module Tool with params its schema rejects (or has the model do so). */
  invalidParams(): Promise<InvalidOutcome>;
  /** Calls the Tool that needs approval, with nobody approving it on the way. */
  approvalNeeded(): Promise<ApprovalOutcome>;
  /** Calls the module Tool with good params (its sub-request must name the agent's model). */
  modelSettings(): Promise<void>;
  close(): Promise<void>;
}

/** What every entry point is built from. */
export interface MatrixSetup {
  baseURL: string;
  effectsFile: string;
}

const sectionWriter = { toolName: 'sectionWriter' } as TypedToolReference<
  { category: string; maxBullets: number },
  { bullets: string[] }
>;
const deleteFile = { toolName: 'deleteFile' } as TypedToolReference<
  { path: string },
  { deleted: string }
>;

/** `/path: message` lines of a message that lists issues (`- /maxBullets: must be <= 10`). */
export function issueLines(text: string): string[] {
  return [...text.matchAll(/(\/[\w/]*): ([^\n]+)/g)].map((match) => `${match[1]}: ${match[2]}`);
}

function configOf(setup: MatrixSetup) {
  return matrix.matrixConfig({
    OpenAIProvider,
    baseURL: setup.baseURL,
    effectsFile: setup.effectsFile,
  });
}

/** The agent loop: `agent.run()` with a model that writes the Calls. */
export function agentLoop(setup: MatrixSetup): EntryPoint {
  const agent = createAgent(configOf(setup));
  return {
    name: 'agent loop',
    async invalidParams() {
      const result = await agent.run({
        task: TASKS.invalid,
        context: INVALID_CONTEXT,
        maxTurns: 3,
      });
      const [failed] = result.failedCalls;
      return { code: failed!.code, issues: issueLines(failed!.message) };
    },
    async approvalNeeded() {
      const result = await agent.run({ task: TASKS.approval, maxTurns: 3 });
      expect(result.interruptions).toEqual([
        { callId: '1:0', tool: 'deleteFile', params: { path: 'from-the-model' } },
      ]);
      return result.stopReason === 'awaiting_approval'
        ? 'held: awaiting approval'
        : 'ran: the caller approved';
    },
    async modelSettings() {
      const result = await agent.run({ task: TASKS.model, maxTurns: 3 });
      expect(result.output).toBe('done');
      expect(result.failedCalls).toEqual([]);
    },
    close: () => agent.dispose(),
  };
}

/** `executor.call()` from code (the message form and the typed form). */
export function executorCall(setup: MatrixSetup): EntryPoint {
  const container = createContainer(configOf(setup));
  const executor = container.get(Executor);
  return {
    name: 'executor.call',
    async invalidParams() {
      const [result] = await executor.call({ _tool: 'sectionWriter', ...INVALID_SECTION }, []);
      const typed = await executor.call(sectionWriter, INVALID_SECTION).catch((error) => error);
      expect(InvalidParamsError.isInstance(typed)).toBe(true);
      if (result?.type !== 'result' || result.error === undefined) throw new Error('no error');
      return { code: result.error.code, issues: issueLines(result.error.message) };
    },
    async approvalNeeded() {
      // A person who is asked and holds the Call: it does not run.
      const ask: CallApproval = () => ({ hold: true });
      const held = await executor.call({ _tool: 'deleteFile', path: 'asked' }, [], {
        approval: ask,
      });
      expect(held).toEqual([]);
      // Code that calls is its own approver (docs/calls.md): the Call runs.
      await executor.call(deleteFile, { path: 'by-the-caller' });
      return 'ran: the caller approved';
    },
    async modelSettings() {
      expect(await executor.call(sectionWriter, VALID_SECTION)).toEqual({ bullets: ['a', 'b'] });
    },
    close: async () => {
      container.reset({ strategy: 'resetServices' });
    },
  };
}

/** `agent.call()` from code. */
export function agentCall(setup: MatrixSetup): EntryPoint {
  const agent = createAgent(configOf(setup));
  return {
    name: 'agent.call',
    async invalidParams() {
      const error = await agent.call(sectionWriter, INVALID_SECTION).catch((thrown) => thrown);
      if (!InvalidParamsError.isInstance(error)) throw error;
      return { code: error.code, issues: issueLines(error.message) };
    },
    async approvalNeeded() {
      await agent.call(deleteFile, { path: 'by-the-caller' });
      return 'ran: the caller approved';
    },
    async modelSettings() {
      expect(await agent.call(sectionWriter, VALID_SECTION)).toEqual({ bullets: ['a', 'b'] });
    },
    close: () => agent.dispose(),
  };
}

/** What an MCP tool result says: its error code and issues, from `_meta['ideact/error']`. */
function mcpError(result: any): { code: string; issues: string[]; text: string } {
  expect(result.isError).toBe(true);
  const meta = result._meta?.[ERROR_META_KEY];
  return {
    code: meta.code,
    issues: (meta.issues ?? []).map((issue: any) => `${issue.path}: ${issue.message}`),
    text: result.content[0].text,
  };
}

function mcpEntryPoint(name: string, client: Client, stop: () => Promise<void>): EntryPoint {
  return {
    name,
    async invalidParams() {
      const result = await client.callTool({ name: 'sectionWriter', arguments: INVALID_SECTION });
      const { code, issues } = mcpError(result);
      return { code, issues };
    },
    async approvalNeeded() {
      const result = await client.callTool({ name: 'deleteFile', arguments: { path: 'over-mcp' } });
      const error = mcpError(result);
      if (error.code === 'APPROVAL_REQUIRED') {
        expect(error.text).toContain('"deleteFile" needs approval before it runs');
        return 'refused: approval required';
      }
      if (error.code === 'CALL_REJECTED') return 'refused: declined';
      return 'ran: the caller approved';
    },
    async modelSettings() {
      const result = await client.callTool({ name: 'sectionWriter', arguments: VALID_SECTION });
      expect(result.isError).toBeUndefined();
      // The module Tool declares no `_output`: MCP wraps its output (`{ result }`).
      expect(result.structuredContent).toEqual({ result: { bullets: ['a', 'b'] } });
    },
    close: stop,
  };
}

/** `ideact mcp serve --config` (the built CLI) over stdio, to a client without elicitation. */
export async function mcpStdio(setup: MatrixSetup): Promise<EntryPoint> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      path.join(ROOT, 'dist', 'cli', 'main.js'),
      'mcp',
      'serve',
      '--config',
      path.join(FIXTURES, 'matrix-tools.cjs'),
    ],
    env: {
      ...(process.env as Record<string, string>),
      MATRIX_BASE_URL: setup.baseURL,
      MATRIX_EFFECTS: setup.effectsFile,
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'matrix-stdio', version: '1.0.0' });
  await client.connect(transport);
  return mcpEntryPoint('MCP over stdio', client, () => client.close());
}

/**
 * `createMcpServer` over Streamable HTTP, to a client that declares elicitation and answers every
 * approval request with `answer` (here: decline, the person says no).
 */
export async function mcpHttp(
  setup: MatrixSetup,
  answer: 'accept' | 'decline' = 'decline',
): Promise<EntryPoint & { elicitations: string[] }> {
  const server = await createMcpServer(createContainer(configOf(setup)));
  const endpoint = await server.serveHttp({ port: 0 });
  const client = new Client(
    { name: 'matrix-http', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const elicitations: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    elicitations.push(String(request.params.message));
    return { action: answer };
  });
  await client.connect(new StreamableHTTPClientTransport(endpoint.url));
  const entry = mcpEntryPoint('MCP over Streamable HTTP', client, async () => {
    await client.close();
    await server.close();
  });
  return { ...entry, elicitations };
}

/** The playground's run API (`ideact dev`): POST /api/runs, then the run's state. */
export async function playground(setup: MatrixSetup): Promise<EntryPoint> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-matrix-dev-'));
  const server = await startDevServer({
    container: createContainer(configOf(setup)),
    store: new FileRunStore({ dir: directory }),
    host: '127.0.0.1',
    port: 0,
    assetsDir: path.join(ROOT, 'dist', 'dev', 'assets'),
  });
  const post = async (body: object): Promise<{ status: number; json: any }> => {
    const response = await fetch(new URL('/api/runs', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url.replace(/\/$/, '') },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  };
  const settled = async (runId: string): Promise<any> => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const response = await fetch(new URL(`/api/runs/${runId}`, server.url));
      const json = (await response.json()) as any;
      if (json.run.status !== 'running') return json;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${runId} did not settle`);
  };
  return {
    name: 'playground run API',
    async invalidParams() {
      const answer = await post({ tool: 'sectionWriter', params: INVALID_SECTION });
      expect(answer.status).toBe(400);
      return {
        code: answer.json.error.code,
        issues: answer.json.error.issues.map((issue: any) => `${issue.path}: ${issue.message}`),
      };
    },
    async approvalNeeded() {
      const answer = await post({ tool: 'deleteFile', params: { path: 'from-the-playground' } });
      expect(answer.status).toBe(202);
      const run = await settled(answer.json.runId);
      expect(run.interruptions).toEqual([
        { callId: '0:0', tool: 'deleteFile', params: { path: 'from-the-playground' } },
      ]);
      return run.run.status === 'awaiting_approval'
        ? 'held: awaiting approval'
        : 'ran: the caller approved';
    },
    async modelSettings() {
      const answer = await post({ tool: 'sectionWriter', params: VALID_SECTION });
      expect(answer.status).toBe(202);
      const run = await settled(answer.json.runId);
      expect(run.run.status).toBe('completed');
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The HTTP run handler (`createRunHandler`, issue 32) over the config's container: POST /runs starts
 * the agent loop with the task (and the input as an input message), GET /runs/:id reports it.
 */
export async function runHandler(setup: MatrixSetup): Promise<EntryPoint> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-matrix-serve-'));
  const store = new FileRunStore({ dir: directory });
  const handler = createRunHandler(createContainer(configOf(setup)), {
    store,
    token: 'matrix-token',
  });
  const headers = { authorization: 'Bearer matrix-token', 'content-type': 'application/json' };
  const call = (url: string, init: RequestInit = {}) =>
    handler(new Request(`http://127.0.0.1${url}`, { ...init, headers }));
  const run = async (body: object): Promise<any> => {
    const started = await call('/runs', { method: 'POST', body: JSON.stringify(body) });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    for (let attempt = 0; attempt < 400; attempt++) {
      const detail = (await (await call(`/runs/${runId}`)).json()) as any;
      if (detail.status !== 'running') return detail;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${runId} did not settle`);
  };
  return {
    name: 'HTTP run handler',
    async invalidParams() {
      const detail = await run({ task: TASKS.invalid, input: { bullets: 99 } });
      const [failed] = detail.failedCalls;
      return { code: failed.code, issues: issueLines(failed.message) };
    },
    async approvalNeeded() {
      const detail = await run({ task: TASKS.approval });
      expect(detail.interruptions).toEqual([
        { callId: '1:0', tool: 'deleteFile', params: { path: 'from-the-model' } },
      ]);
      return detail.status === 'awaiting_approval'
        ? 'held: awaiting approval'
        : 'ran: the caller approved';
    },
    async modelSettings() {
      const detail = await run({ task: TASKS.model });
      expect(detail).toMatchObject({ status: 'completed', output: 'done', failedCalls: [] });
    },
    async close() {
      await handler.close();
      await store.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** A worker (DBOS on PostgreSQL) running queued runs of the agent; the model writes the Calls. */
export async function worker(setup: MatrixSetup, engine: EngineOptions): Promise<EntryPoint> {
  const agent: Agent = createAgent(configOf(setup));
  const running = await startWorker({
    ...engine,
    agent,
    concurrency: 2,
    pollingIntervalMs: 100,
    takeoverIntervalMs: 500,
  });
  const run = async (task: string, context?: Message[]) => {
    const { runId } = await enqueueRun({ ...engine, task, ...(context ? { context } : {}) });
    return waitForRun(runId, { ...engine, timeoutMs: 60_000 });
  };
  return {
    name: 'worker',
    async invalidParams() {
      const result = await run(TASKS.invalid, INVALID_CONTEXT);
      const [failed] = result.failedCalls;
      return { code: failed!.code, issues: issueLines(failed!.message) };
    },
    async approvalNeeded() {
      const result = await run(TASKS.approval);
      expect(result.interruptions).toEqual([
        { callId: '1:0', tool: 'deleteFile', params: { path: 'from-the-model' } },
      ]);
      return result.status === 'awaiting_approval'
        ? 'held: awaiting approval'
        : 'ran: the caller approved';
    },
    async modelSettings() {
      const result = await run(TASKS.model);
      expect(result).toMatchObject({ status: 'completed', output: 'done', failedCalls: [] });
    },
    async close() {
      await running.stop({ timeoutMs: 2_000 });
      await agent.dispose();
    },
  };
}

/** The side effects the approval Tool left (one line each). */
export function effectLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return [];
  }
}
