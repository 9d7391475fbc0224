import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RunQueue, startWorker, type EngineOptions, type Worker } from 'ideact';
import { databaseForThisFile } from '../support/test-database';
import { scenarioAgent, TASKS } from './fixtures/worker-scenario';

/**
 * Issue 27 item 9: a long-lived worker does not pile up listeners on its stop signal. Each Actor step
 * of a worker's run is a session that listens to the worker's signal while it runs; it used to add a
 * listener per step and never remove it, so every worker logged `MaxListenersExceededWarning` after
 * ten Actor steps and kept every session reachable. 50 runs of two Actor steps each (four Calls),
 * one after another, on a worker in this process.
 */
const db = databaseForThisFile();
const RUNS = 50;

describe('a worker running many runs (issue 27 item 9)', () => {
  let directory: string;
  let engine: EngineOptions;
  let worker: Worker | undefined;
  let queue: RunQueue | undefined;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'ideact-worker-listeners-'));
    engine = {
      databaseUrl: db.url,
      schema: db.schema,
      systemSchema: db.newSchema(),
      queueName: 'worker-listeners-test',
    };
    process.on('warning', onWarning);
  });

  afterAll(async () => {
    process.off('warning', onWarning);
    await queue?.close();
    await worker?.stop({ timeoutMs: 1_000 });
    rmSync(directory, { recursive: true, force: true });
  });

  it(`${RUNS} sequential runs with Actor steps: no MaxListenersExceededWarning, and the stop signal's listener count stays flat`, async () => {
    worker = await startWorker({
      ...engine,
      agent: scenarioAgent(path.join(directory, 'effects.jsonl'), { fast: true }),
      concurrency: 1,
      pollingIntervalMs: 50,
    });
    queue = new RunQueue(engine);
    const abortListeners = () => getEventListeners(worker!.signal, 'abort').length;
    const idle = abortListeners();
    let afterFifth: number | undefined;
    for (let run = 1; run <= RUNS; run++) {
      const { runId } = await queue.enqueue({ task: TASKS.kill });
      const result = await queue.wait(runId, { timeoutMs: 30_000 });
      // Two Actor steps: a, b and c (slow, 50 ms here), then d (results in the order they ended).
      const outputs = String(result.output).split(', ').sort();
      expect({ run, status: result.status, outputs }).toEqual({
        run,
        status: 'completed',
        outputs: ['recorded a', 'recorded b', 'recorded d', 'slept c'],
      });
      if (run === 5) afterFifth = abortListeners();
    }
    const afterLast = abortListeners();
    expect({ idle, afterFifth, afterLast }).toEqual({ idle, afterFifth: idle, afterLast: idle });
    expect(
      warnings
        .filter((warning) => /MaxListenersExceeded/.test(`${warning.name} ${warning.message}`))
        .map((warning) => warning.message),
    ).toEqual([]);
  }, 300_000);
});
