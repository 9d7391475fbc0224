import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  RunActiveError,
  RunQueue,
  WorkerAlreadyRunningError,
  enqueueRun,
  startWorker,
  waitForRun,
  type EngineOptions,
  type Worker,
} from 'ideact';
import { CLI, REPO_ROOT, runCli, runPrintedCommand } from '../cli/run-cli';
import { databaseForThisFile } from '../support/test-database';
import { scenarioAgent, TASKS, type SideEffect } from './fixtures/worker-scenario';
import { sideEffects, waitUntil } from './worker-processes';

/**
 * Workers on DBOS (issue 18 item 4) with a worker in this process and the built CLI in child
 * processes: approvals and cancellation through `ideact runs … --database-url`, a stopping worker's
 * run taken over by the next one, one worker per process.
 */
const db = databaseForThisFile();

/** One run at a time, a 100 ms queue poll, a 500 ms takeover scan. */
const WORKER_PACE = [
  '--concurrency',
  '1',
  '--polling-interval',
  '100',
  '--takeover-interval',
  '500',
];

/** `ideact worker ARGS` (at WORKER_PACE) as a child: its stderr and exit. */
function cliWorker(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'worker', ...args, ...WORKER_PACE], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

describe('a worker on the test database (issue 18)', () => {
  let directory: string;
  let log: string;
  let engine: EngineOptions;
  let worker: Worker;
  let queue: RunQueue;
  let cliDatabase: string[];

  const startTestWorker = () =>
    startWorker({
      ...engine,
      agent: scenarioAgent(log),
      concurrency: 2,
      pollingIntervalMs: 100,
      takeoverIntervalMs: 200,
    });

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ideact-worker-'));
    log = path.join(directory, 'effects.jsonl');
    const systemSchema = db.newSchema();
    engine = { databaseUrl: db.url, schema: db.schema, systemSchema, queueName: 'worker-test' };
    cliDatabase = [
      '--database-url',
      db.url,
      '--schema',
      db.schema,
      '--system-schema',
      systemSchema,
      '--queue',
      'worker-test',
    ];
    worker = await startTestWorker();
    queue = new RunQueue(engine);
  }, 60_000);

  afterAll(async () => {
    await queue?.close();
    await worker?.stop({ timeoutMs: 1_000 });
    rmSync(directory, { recursive: true, force: true });
  });

  const effects = (): SideEffect[] => sideEffects(log);
  const effectsOf = (runId: string) => effects().filter((line) => line.runId === runId);
  const workflowStatuses = async (runId: string) =>
    (
      await db.query<{ workflow_uuid: string; status: string }>(
        `SELECT workflow_uuid, status FROM "${engine.systemSchema}".workflow_status
          WHERE (workflow_uuid = $1 OR workflow_uuid LIKE $2) AND parent_workflow_id IS NULL
          ORDER BY created_at`,
        [runId, `${runId}:%`],
      )
    ).map((row) => `${row.workflow_uuid} ${row.status}`);

  it('a run stops awaiting approval; `ideact runs show` lists the interruption; `ideact runs resume --approve` re-enqueues it and it completes', async () => {
    const { runId } = await enqueueRun({ ...engine, task: TASKS.approval });
    const stopped = await waitForRun(runId, engine);
    expect(stopped).toMatchObject({
      runId,
      status: 'awaiting_approval',
      stopReason: 'awaiting_approval',
      interruptions: [{ callId: '1:0', tool: 'transfer', params: { amount: 50 } }],
    });
    expect(effectsOf(runId).map((line) => `${line.event} ${line.tool}`)).toEqual([
      'start record',
      'done record',
    ]);

    const shown = await runCli(['runs', 'show', runId, ...cliDatabase, '--json']);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      runId,
      status: 'awaiting_approval',
      task: TASKS.approval,
      interruptions: [{ callId: '1:0', tool: 'transfer' }],
    });
    const text = await runCli(['runs', 'show', runId, ...cliDatabase]);
    expect(text.stdout).toContain('status    awaiting_approval');
    // Issue 27 item 7: the suggested command names this store and queue (the URL without its
    // password: PGPASSWORD supplies it), and works as printed.
    const printed = /^decide with: (ideact runs resume .*) \(or --reject 1:0=reason/m.exec(
      text.stdout,
    )?.[1];
    const url = new URL(db.url);
    const password = decodeURIComponent(url.password);
    url.password = '';
    const database = ['--database-url', password === '' ? db.url : url.toString()];
    expect(printed).toBe(
      ['ideact runs resume', runId, ...database, ...cliDatabase.slice(2), '--approve 1:0'].join(
        ' ',
      ),
    );

    const resumed = await runPrintedCommand(printed!, {
      extraArgs: ['--wait', '--json'],
      ...(password === '' ? {} : { env: { PGPASSWORD: password } }),
    });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      runId,
      status: 'completed',
      output: 'recorded e, transferred 50',
    });
    // The transfer ran once, after the decision; the record Call was not run again.
    expect(effectsOf(runId).map((line) => `${line.event} ${line.tool} #${line.attempt}`)).toEqual([
      'start record #1',
      'done record #1',
      'start transfer #1',
      'done transfer #1',
    ]);
    expect(await workflowStatuses(runId)).toEqual([`${runId} SUCCESS`, `${runId}:2 SUCCESS`]);
  }, 30_000);

  it('`ideact runs cancel` stops a running run (its Activity aborted, not recorded); resume refuses while it runs; `ideact runs resume` then completes it', async () => {
    const { runId } = await queue.enqueue({ task: TASKS.slow });
    await waitUntil(() => effectsOf(runId).some((line) => line.event === 'start'), 'the slow Call');
    await expect(queue.resume(runId)).rejects.toBeInstanceOf(RunActiveError);

    const cancelled = await runCli(['runs', 'cancel', runId, ...cliDatabase]);
    expect(cancelled.stderr).toBe('');
    expect(cancelled).toMatchObject({ code: 0, stdout: `cancelled ${runId}\n` });
    expect(await queue.wait(runId, { timeoutMs: 10_000 })).toMatchObject({
      runId,
      status: 'cancelled',
      output: null,
    });
    expect(await workflowStatuses(runId)).toEqual([`${runId} CANCELLED`]);
    const shown = await runCli(['runs', 'show', runId, ...cliDatabase, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ status: 'cancelled' });
    // The Activity was aborted mid-way: started once, never done, its Call still open.
    expect(effectsOf(runId).map((line) => `${line.event} #${line.attempt}`)).toEqual(['start #1']);
    expect(JSON.parse(shown.stdout).openCalls).toEqual([{ callId: '1:0', attempt: 1 }]);

    const resumed = await runCli(['runs', 'resume', runId, ...cliDatabase, '--wait', '--json']);
    expect(resumed.stderr).toBe('');
    // The report on stdout says why, when the run did not complete.
    expect({ code: resumed.code, report: JSON.parse(resumed.stdout) as unknown }).toMatchObject({
      code: 0,
      report: { status: 'completed', output: 'slept s' },
    });
    expect(effectsOf(runId).map((line) => `${line.event} #${line.attempt}`)).toEqual([
      'start #1',
      'start #2',
      'done #2',
    ]);
    expect(await workflowStatuses(runId)).toEqual([`${runId} CANCELLED`, `${runId}:2 SUCCESS`]);
  }, 30_000);

  it('each Call is a DBOS step of its own, numbered in index order though Call 0 waits for Call 1 (R-FLOW-1)', async () => {
    const { runId } = await queue.enqueue({ task: TASKS.dataflow });
    expect(await queue.wait(runId, { timeoutMs: 15_000 })).toMatchObject({ status: 'completed' });
    // Call 1 ran first (Call 0 read what it wrote), each once.
    expect(effectsOf(runId).map((line) => `${line.event} ${line.callId} ${line.name}`)).toEqual([
      'start 1:1 g',
      'done 1:1 g',
      'start 1:0 g',
      'done 1:0 g',
    ]);
    const rows = await db.query<{ function_name: string; started_at_epoch_ms: string }>(
      `SELECT function_name, started_at_epoch_ms FROM "${engine.systemSchema}".operation_outputs WHERE workflow_uuid = $1 AND function_name LIKE 'call %' ORDER BY function_id`,
      [runId],
    );
    expect(rows.map((row) => row.function_name)).toEqual(['call 1:0', 'call 1:1']);
  });

  /** Enqueues the nested task; resolves once its nested run's slow Call n2 started (attempt 1). */
  const startNestedRun = async () => {
    const { runId } = await queue.enqueue({ task: TASKS.nested });
    const nestedRunId = `${runId}-1-0`;
    await waitUntil(
      () => effectsOf(nestedRunId).some((line) => line.name === 'n2'),
      'the nested slow Call',
    );
    return { runId, nestedRunId };
  };
  /**
   * The nested task completed with the helper's output, and the same nested run went on after the
   * interruption: n1 did not run again, n2 did (attempt 2).
   */
  const expectNestedRunCompleted = async (runId: string) => {
    expect(await queue.wait(runId, { timeoutMs: 15_000 })).toMatchObject({
      status: 'completed',
      output: 'recorded x, helped[recorded n1, slept n2]',
    });
    // n1 and n2 are Calls of one Vessel: they start in either order; each one's lines are in order.
    const lines = effectsOf(`${runId}-1-0`);
    const of = (name: string) =>
      lines
        .filter((line) => line.name === name)
        .map((line) => `${line.event} ${line.name} #${line.attempt}`);
    expect(of('n1')).toEqual(['start n1 #1', 'done n1 #1']);
    expect(of('n2')).toEqual(['start n2 #1', 'start n2 #2', 'done n2 #2']);
    expect(lines).toHaveLength(5);
  };

  it('R-MOD-5 cancelling a run cancels its nested run (a child workflow); a resume continues the nested run where it stopped', async () => {
    const { runId, nestedRunId } = await startNestedRun();
    await queue.cancel(runId);
    expect(await queue.wait(runId, { timeoutMs: 10_000 })).toMatchObject({ status: 'cancelled' });
    const children = async () =>
      (
        await db.query<{ workflow_uuid: string; status: string }>(
          `SELECT workflow_uuid, status FROM "${engine.systemSchema}".workflow_status
            WHERE parent_workflow_id LIKE $1 ORDER BY created_at`,
          [`${runId}%`],
        )
      ).map((row) => row.status);
    // DBOS cancels the child with its parent; the nested run's aborted Call stays open.
    expect(await children()).toEqual(['CANCELLED']);
    await waitUntil(
      async () => (await queue.store.load(nestedRunId))?.status === 'cancelled',
      'the nested run marked cancelled',
    );
    expect((await queue.store.load(nestedRunId))?.openCalls).toEqual([
      { callId: '3:1', attempt: 1 },
    ]);

    await queue.resume(runId);
    await expectNestedRunCompleted(runId);
    expect(effectsOf(runId).map((line) => `${line.event} ${line.name} #${line.attempt}`)).toEqual([
      'start x #1',
      'done x #1',
    ]);
    expect(await children()).toEqual(['CANCELLED', 'SUCCESS']);
    expect(await workflowStatuses(runId)).toEqual([`${runId} CANCELLED`, `${runId}:2 SUCCESS`]);
    expect(await queue.store.list({ parentRunId: runId })).toEqual([
      expect.objectContaining({ runId: nestedRunId, status: 'completed' }),
    ]);
  }, 30_000);

  it('one worker per process: a second startWorker is a WorkerAlreadyRunningError', async () => {
    await expect(startTestWorker()).rejects.toBeInstanceOf(WorkerAlreadyRunningError);
  });

  it('worker.stop() mid-Activity abandons the step (not recorded); the next worker takes the run over and completes it', async () => {
    const { runId } = await queue.enqueue({ task: TASKS.slow });
    await waitUntil(() => effectsOf(runId).some((line) => line.event === 'start'), 'the slow Call');
    await worker.stop({ timeoutMs: 5_000 });
    // Each row: the step's name, then its outcome's kind (agent steps) or the Call id (Call steps).
    const steps = async () =>
      (
        await db.query<{ function_name: string; output: string }>(
          `SELECT function_name, output FROM "${engine.systemSchema}".operation_outputs WHERE workflow_uuid = $1 ORDER BY function_id`,
          [runId],
        )
      ).map((row) => {
        const output = JSON.parse(row.output).json as { kind?: string } | string;
        return `${row.function_name} → ${typeof output === 'string' ? output : output.kind}`;
      });
    // The model turn, which reports the Actor's plan, was recorded; the Call step the stop
    // abandoned was not.
    expect(await steps()).toEqual(['agent-step → actor']);

    worker = await startTestWorker();
    expect(await queue.wait(runId, { timeoutMs: 15_000 })).toMatchObject({
      status: 'completed',
      output: 'slept s',
    });
    expect(effectsOf(runId).map((line) => `${line.event} #${line.attempt}`)).toEqual([
      'start #1',
      'start #2',
      'done #2',
    ]);
    // The Call is a DBOS step of its own, recorded once it ran on the second worker.
    expect(await steps()).toEqual(['agent-step → actor', 'call 1:0 → 1:0', 'agent-step → done']);
  }, 30_000);

  it('R-MOD-5 worker.stop() mid-nested-Activity abandons the parent and child steps; the next worker takes both over and completes the run', async () => {
    const { runId } = await startNestedRun();
    await worker.stop({ timeoutMs: 5_000 });
    const workflows = async () =>
      (
        await db.query<{ status: string; parent_workflow_id: string | null }>(
          `SELECT status, parent_workflow_id FROM "${engine.systemSchema}".workflow_status
            WHERE workflow_uuid = $1 OR parent_workflow_id = $1 ORDER BY created_at`,
          [runId],
        )
      ).map((row) => `${row.parent_workflow_id === null ? 'run' : 'child'} ${row.status}`);
    expect(await workflows()).toEqual(['run PENDING', 'child PENDING']);

    worker = await startTestWorker();
    await expectNestedRunCompleted(runId);
    expect(await workflows()).toEqual(['run SUCCESS', 'child SUCCESS']);
  }, 30_000);

  it('issue 29: `ideact worker --config` serves runs of the config’s agent, enqueued with no agent name or as `agent`', async () => {
    const config = path.join(directory, 'ideact.config.cjs');
    writeFileSync(
      config,
      `const { ScriptedProvider } = require(${JSON.stringify(path.join(REPO_ROOT, 'dist', 'testing', 'index.js'))});
const shout = {
  type: 'object',
  properties: { _tool: { const: 'shout' }, text: { type: 'string' } },
  required: ['_tool', 'text'],
};
module.exports = {
  tools: [shout],
  activities: [{ shout: (params) => String(params.text).toUpperCase() }],
  // Each run asks for one shout, then answers once the Activity's result is in the prompt.
  provider: new ScriptedProvider((request) =>
    request.messages.some((message) => String(message.content).includes('HELLO THERE'))
      ? { calls: [], output: 'heard HELLO THERE' }
      : { calls: [{ _tool: 'shout', text: 'hello there' }], output: null },
  ),
};
`,
    );
    const options = cliDatabase.map((value) => (value === 'worker-test' ? 'config-worker' : value));
    const { child, stderr, exited } = cliWorker([...options, '--config', config]);
    const configQueue = new RunQueue({ ...engine, queueName: 'config-worker' });
    try {
      await waitUntil(
        () => stderr().includes(': serving agent on queue config-worker'),
        'the worker',
      );
      for (const agentName of [undefined, 'agent']) {
        const { runId } = await configQueue.enqueue({
          task: 'Shout hello.',
          ...(agentName === undefined ? {} : { agentName }),
        });
        expect(await configQueue.wait(runId, { timeoutMs: 15_000 })).toMatchObject({
          status: 'completed',
          stopReason: 'output',
          output: 'heard HELLO THERE',
        });
      }
    } finally {
      await configQueue.close();
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  }, 45_000);

  it('`ideact worker --idea` serves runs that `ideact runs enqueue` puts on its queue, and stops on SIGINT', async () => {
    const idea = path.join(directory, 'echo.json');
    writeFileSync(
      idea,
      JSON.stringify({
        context: [{ type: 'system', text: 'Answer with a title.' }],
        schema: {
          type: 'object',
          properties: { title: { type: 'string', default: 'Rain' } },
          required: ['title'],
        },
      }),
    );
    const options = cliDatabase.map((value) => (value === 'worker-test' ? 'cli-worker' : value));
    const { child, stderr, exited } = cliWorker([
      ...options,
      ...['--idea', idea, '--provider', 'offline'],
    ]);
    try {
      await waitUntil(() => stderr().includes(': serving echo on queue cli-worker'), 'the worker');
      expect(stderr()).toContain(
        '(concurrency 1, queue polled every 100 ms, takeover scan every 500 ms)',
      );
      const enqueued = await runCli(['runs', 'enqueue', idea, ...options, '--wait', '--json']);
      expect(enqueued.stderr).toBe('');
      expect(enqueued.code).toBe(0);
      expect(JSON.parse(enqueued.stdout)).toMatchObject({
        status: 'completed',
        stopReason: 'output',
        output: { title: 'Rain' },
      });
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
    expect(stderr()).toContain('ideact worker: SIGINT: stopping');
  }, 30_000);
});
