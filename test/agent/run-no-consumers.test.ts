import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createAgent, FileRunStore, RunContext, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import * as journal from '../../src/runs/run-journal';

/**
 * Issue 28: nothing is built for a consumer that does not exist. A run with no listener emits no
 * event objects, a run with no OpenTelemetry SDK opens no spans (not even no-op ones), and a run
 * with no store writes no journal entries — while each of them appears as soon as its consumer
 * does (the positive controls below), so events, tracing and journals stay available.
 */
const lookup: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'lookup' }, key: { type: 'string' } },
  required: ['_tool', 'key'],
};

/** An agent whose model calls `lookup` for three turns, then answers. */
function threeTurnAgent(store?: FileRunStore) {
  let turn = 0;
  const provider = new ScriptedProvider(() =>
    turn++ < 3
      ? { calls: [{ _tool: 'lookup', key: `k${turn}` }], output: null }
      : { calls: [], output: 'done' },
  );
  return createAgent({
    tools: [lookup],
    activities: [{ lookup: (params: Record<string, unknown>) => ({ value: params.key }) }],
    provider,
    ...(store === undefined ? {} : { store }),
  });
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('a run with nobody listening builds nothing for nobody (issue 28)', () => {
  it('no listener: no event object is emitted; with a subscriber, every event is', async () => {
    const emit = jest.spyOn(RunContext.prototype, 'emit');
    const quiet = await threeTurnAgent().run({ task: 'go' });
    expect(quiet.output).toBe('done');
    expect(emit).not.toHaveBeenCalled();

    const run = threeTurnAgent().start({ task: 'go' });
    const seen: string[] = [];
    run.subscribe((event) => seen.push(event.type), { deltas: false });
    await run.result();
    expect(emit).toHaveBeenCalled();
    expect(seen).toEqual(expect.arrayContaining(['run-start', 'call-start', 'step', 'run-end']));
  });

  it('usage is counted without events: the quiet run has the same usage as the observed one', async () => {
    const quiet = await threeTurnAgent().run({ task: 'go' });
    const observed = threeTurnAgent().start({ task: 'go' });
    observed.subscribe(() => undefined, { deltas: false });
    const result = await observed.result();
    // Each run's own id keys its row of `byPath`; everything else must be the same.
    const comparable = ({ elapsedMs: _time, byPath, ...usage }: typeof quiet.usage) => ({
      ...usage,
      byPath: Object.values(byPath ?? {}),
    });
    expect(comparable(quiet.usage)).toEqual(comparable(result.usage));
    expect(Object.keys(quiet.usage.byPath ?? {})).toEqual([quiet.runId]);
    expect(quiet.usage.steps).toBeGreaterThan(0);
  });

  it('no OpenTelemetry SDK: no tracer is asked for a span; with one registered, spans appear', async () => {
    const getTracer = jest.spyOn(trace, 'getTracer');
    await threeTurnAgent().run({ task: 'go' });
    expect(getTracer).not.toHaveBeenCalled();

    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    provider.register();
    try {
      await threeTurnAgent().run({ task: 'go' });
      const names = exporter.getFinishedSpans().map((span) => span.name);
      expect(names).toEqual(expect.arrayContaining(['invoke_agent', 'execute_tool lookup']));
    } finally {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    }
  });

  it('no store: no journal entry is made; with a store, every step is journaled', async () => {
    const commit = jest.spyOn(journal, 'commitEntry');
    await threeTurnAgent().run({ task: 'go' });
    expect(commit).not.toHaveBeenCalled();

    const directory = mkdtempSync(path.join(tmpdir(), 'ideact-no-consumers-'));
    try {
      const store = new FileRunStore({ dir: directory });
      const stored = await threeTurnAgent(store).run({ task: 'go' });
      expect(commit).toHaveBeenCalled();
      expect((await store.load(stored.runId))?.state.nextStep).toEqual(stored.state.nextStep);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
