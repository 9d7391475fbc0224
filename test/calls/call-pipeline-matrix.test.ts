import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serversForThisFile, type ChatCompletionsServer } from '../support/chat-completions-server';
import { databaseForThisFile } from '../support/test-database';
import {
  agentCall,
  agentLoop,
  effectLines,
  executorCall,
  matrix,
  matrixModel,
  mcpHttp,
  mcpStdio,
  playground,
  runHandler,
  worker,
  type ApprovalOutcome,
  type EntryPoint,
  type MatrixSetup,
} from './support/matrix-entry-points';

/**
 * Issue 27, DESIGN §8: one call pipeline, many entry points. One Tool set — an explicit Tool that
 * needs approval, a module Tool whose Idea has an enum and a maximum, a latent Tool — reached through
 * every entry point (the agent loop, `executor.call`, `agent.call`, MCP over stdio and Streamable
 * HTTP, the playground's run API, a worker on PostgreSQL) × {invalid params, approval needed, model
 * settings}. The model is a local OpenAI-compatible server (the real `openai` client), so the test
 * sees every request that leaves the process. The same rule gives the same outcome everywhere:
 * - invalid params: `INVALID_PARAMS` naming `/maxBullets` (the Idea says `maximum: 10`), and the
 *   module's sub-request is never sent;
 * - approval: no side effect unless someone approved — the loop, the playground, the run handler and workers hold the
 *   Call (`awaiting_approval`), MCP asks its client (elicitation) or refuses; code that calls
 *   `executor.call` / `agent.call` is its own approver (documented), and an approval function it
 *   passes is asked like any person;
 * - model settings: every request (the agent's turns, the module's sub-request) names the agent's
 *   model, never the provider's default.
 */
const db = databaseForThisFile();
const serve = serversForThisFile();

const EXPECTED_INVALID = { code: 'INVALID_PARAMS', issues: ['/maxBullets: must be <= 10'] };

type Factory = (setup: MatrixSetup) => EntryPoint | Promise<EntryPoint>;

/** Each entry point, how it is built, what it does with a Call that needs approval, and its side effects then. */
const ENTRY_POINTS: Array<[string, Factory, ApprovalOutcome, number]> = [
  ['agent loop', agentLoop, 'held: awaiting approval', 0],
  ['executor.call', executorCall, 'ran: the caller approved', 1],
  ['agent.call', agentCall, 'ran: the caller approved', 1],
  ['MCP over stdio', mcpStdio, 'refused: approval required', 0],
  ['MCP over Streamable HTTP', (setup) => mcpHttp(setup, 'decline'), 'refused: declined', 0],
  ['playground run API', playground, 'held: awaiting approval', 0],
  ['HTTP run handler', runHandler, 'held: awaiting approval', 0],
  [
    'worker',
    (setup) =>
      worker(setup, {
        databaseUrl: db.url,
        schema: db.schema,
        systemSchema: db.newSchema(),
        queueName: 'matrix',
      }),
    'held: awaiting approval',
    0,
  ],
];

let model: ChatCompletionsServer;
let directory: string;

beforeAll(async () => {
  model = await serve(matrixModel);
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-matrix-'));
});

afterAll(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

describe.each(ENTRY_POINTS)('%s', (name, factory, approvalOutcome, sideEffects) => {
  let entry: EntryPoint;
  let effectsFile: string;

  beforeAll(async () => {
    effectsFile = path.join(directory, `${name.replace(/\W+/g, '-')}.effects`);
    entry = await factory({ baseURL: model.baseURL, effectsFile });
  }, 120_000);

  afterAll(async () => {
    await entry?.close();
  }, 30_000);

  /** Runs `body` and returns the requests the model server received meanwhile. */
  const requestsDuring = async (body: () => Promise<unknown>) => {
    const before = model.requests.length;
    await body();
    return model.requests.slice(before);
  };

  it('invalid params → INVALID_PARAMS at /maxBullets, and no module sub-request is sent', async () => {
    let outcome: unknown;
    const requests = await requestsDuring(async () => {
      outcome = await entry.invalidParams();
    });
    expect(outcome).toEqual(EXPECTED_INVALID);
    const prompts = requests.map((request) => JSON.stringify(request.body.messages));
    expect(prompts.filter((prompt) => prompt.includes('You write newsletter sections'))).toEqual(
      [],
    );
  }, 60_000);

  it(`approval needed → ${approvalOutcome}; side effects: ${sideEffects}`, async () => {
    expect(await entry.approvalNeeded()).toBe(approvalOutcome);
    expect(effectLines(effectsFile)).toHaveLength(sideEffects);
  }, 60_000);

  it("model settings → every request names the agent's model, the module's sub-request too", async () => {
    const requests = await requestsDuring(() => entry.modelSettings());
    const subRequests = requests.filter((request) =>
      JSON.stringify(request.body.messages).includes('You write newsletter sections'),
    );
    expect(subRequests).toHaveLength(1);
    expect(requests.map((request) => request.body.model)).toEqual(
      requests.map(() => matrix.MATRIX_MODEL),
    );
  }, 60_000);
});
