import {
  Executor,
  type ActivityFunction,
  type Call,
  type Message,
  type ResultMessage,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { tool } from './executor-fixtures';

/** A promise with its resolve/reject exposed, to settle calls in a chosen order. */
function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function results(messages: Message[]): ResultMessage[] {
  return messages.filter((message): message is ResultMessage => message.type === 'result');
}

/** Activities driven by the test: `wait` waits for its gate (or the abort signal), counting starts and aborts. */
function harness() {
  const gates = new Map<string, ReturnType<typeof deferred<unknown>>>();
  const gate = (id: string) => {
    let entry = gates.get(id);
    if (!entry) {
      entry = deferred<unknown>();
      gates.set(id, entry);
    }
    return entry;
  };
  const stats = { started: [] as string[], aborted: [] as string[], inFlight: 0, maxInFlight: 0 };
  const wait: ActivityFunction = async (params, { signal }) => {
    const id = String(params.id);
    stats.started.push(id);
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    signal.addEventListener('abort', () => stats.aborted.push(id), { once: true });
    try {
      return await gate(id).promise;
    } finally {
      stats.inFlight -= 1;
    }
  };
  const executor = new Executor({
    provider: new ScriptedProvider([]),
    tools: [tool('wait', { id: { type: 'string' } }, ['id'])],
    activities: [{ wait }],
    concurrency: 2,
  });
  const call = (id: string): Call => ({ _tool: 'wait', id });
  return { executor, gate, stats, call };
}

describe('Executor batches (R-CALL-4)', () => {
  it('all: every result in call order, whatever the completion order', async () => {
    const { executor, gate, call } = harness();
    const pending = executor.all([call('a'), call('b')], []);
    await tick();
    gate('b').resolve('B');
    await tick();
    gate('a').resolve('A');
    const batch = await pending;
    expect(batch.ok).toBe(true);
    expect(results(batch.messages).map((message) => message.output)).toEqual(['A', 'B']);
    expect(batch.results).toHaveLength(2);
  });

  it('all: a failure aborts in-flight calls and does not start the rest; every call still gets a result', async () => {
    const { executor, gate, stats, call } = harness();
    const pending = executor.all([call('a'), call('b'), call('c'), call('d')], []);
    await tick();
    expect(stats.started).toEqual(['a', 'b']);
    gate('b').reject(new Error('b broke'));
    const batch = await pending;
    expect(batch.ok).toBe(false);
    expect(stats.started).toEqual(['a', 'b']);
    expect(stats.aborted).toEqual(['a']);
    const [a, b, c, d] = results(batch.messages);
    expect(a?.error?.code).toBe('CALL_CANCELLED');
    expect(a?.error?.message).toContain('call #2 (tool "wait") failed first');
    expect(b?.error).toMatchObject({ code: 'ACTIVITY_FAILED' });
    expect(b?.error?.message).toContain('b broke');
    expect(c?.error?.code).toBe('CALL_CANCELLED');
    expect(c?.error?.message).toContain('not started');
    expect(d?.call).toEqual(call('d'));
    expect(d?.error?.code).toBe('CALL_CANCELLED');
  });

  it('any: the first success wins, earlier failures do not decide, the rest is cancelled', async () => {
    const { executor, gate, stats, call } = harness();
    const pending = executor.any([call('a'), call('b'), call('c')], [], { concurrency: 3 });
    await tick();
    gate('a').reject(new Error('a failed'));
    await tick();
    gate('b').resolve('B wins');
    const batch = await pending;
    expect(batch).toMatchObject({ ok: true, winner: 1, output: 'B wins' });
    expect(stats.aborted).toEqual(['c']);
    const [a, , c] = results(batch.messages);
    expect(a?.error?.code).toBe('ACTIVITY_FAILED');
    expect(c?.error?.code).toBe('CALL_CANCELLED');
  });

  it('any: ok is false when every call fails', async () => {
    const { executor, gate, call } = harness();
    const pending = executor.any([call('a'), call('b')], []);
    await tick();
    gate('a').reject(new Error('no'));
    gate('b').reject(new Error('no'));
    const batch = await pending;
    expect(batch.ok).toBe(false);
    expect(batch.winner).toBeUndefined();
    expect(results(batch.messages).map((message) => message.error?.code)).toEqual([
      'ACTIVITY_FAILED',
      'ACTIVITY_FAILED',
    ]);
  });

  it('race: the first settled call wins even when it failed', async () => {
    const { executor, gate, stats, call } = harness();
    const pending = executor.race([call('a'), call('b')], []);
    await tick();
    gate('b').reject(new Error('b lost fast'));
    const batch = await pending;
    expect(batch.ok).toBe(false);
    expect(batch.winner).toBe(1);
    expect(stats.aborted).toEqual(['a']);
    expect(results(batch.messages)[0]?.error?.message).toContain('settled first ("race")');
  });

  it('race: a first success gives ok and the output', async () => {
    const { executor, gate, call } = harness();
    const pending = executor.race([call('a'), call('b')], []);
    await tick();
    gate('a').resolve('A');
    expect(await pending).toMatchObject({ ok: true, winner: 0, output: 'A' });
  });

  it('respects the concurrency limit (counting in-flight activities)', async () => {
    const { executor, gate, stats, call } = harness();
    const ids = Array.from({ length: 12 }, (_, index) => `c${index}`);
    const pending = executor.all(
      ids.map((id) => call(id)),
      [],
      { concurrency: 3 },
    );
    for (let round = 0; round < ids.length; round++) {
      await tick();
      expect(stats.inFlight).toBeLessThanOrEqual(3);
      const next = stats.started[round];
      if (next !== undefined) gate(next).resolve(next);
    }
    const batch = await pending;
    expect(batch.ok).toBe(true);
    expect(stats.maxInFlight).toBe(3);
    expect(stats.started).toHaveLength(12);
  });

  it('uses the executor default concurrency (2 here) and allSettled runs everything', async () => {
    const { executor, gate, stats, call } = harness();
    const pending = executor.allSettled([call('a'), call('b'), call('c')], []);
    await tick();
    expect(stats.inFlight).toBe(2);
    gate('a').reject(new Error('x'));
    gate('b').resolve('B');
    await tick();
    gate('c').resolve('C');
    const batch = await pending;
    expect(batch.ok).toBe(false);
    expect(stats.aborted).toEqual([]);
    expect(results(batch.messages).map((message) => message.output ?? message.error?.code)).toEqual(
      ['ACTIVITY_FAILED', 'B', 'C'],
    );
  });

  it('the caller signal cancels the whole batch', async () => {
    const { executor, stats, call } = harness();
    const controller = new AbortController();
    const pending = executor.all([call('a'), call('b'), call('c')], [], {
      signal: controller.signal,
    });
    await tick();
    controller.abort();
    const batch = await pending;
    expect(batch.ok).toBe(false);
    expect(stats.aborted.sort()).toEqual(['a', 'b']);
    expect(
      results(batch.messages).every((message) => message.error?.code === 'CALL_CANCELLED'),
    ).toBe(true);
  });
});

describe('batches of many Calls (R-CALL-4)', () => {
  it('adds one abort listener per batch signal, not one per Call (Node warns past ten on one signal)', async () => {
    // Count the abort listeners each signal holds at once while the batch runs.
    const counts = new Map<EventTarget, number>();
    let most = 0;
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    const addSpy = jest
      .spyOn(EventTarget.prototype, 'addEventListener')
      .mockImplementation(function (
        this: EventTarget,
        ...args: Parameters<EventTarget['addEventListener']>
      ) {
        if (args[0] === 'abort') {
          counts.set(this, (counts.get(this) ?? 0) + 1);
          most = Math.max(most, counts.get(this)!);
        }
        return add.apply(this, args);
      });
    const removeSpy = jest
      .spyOn(EventTarget.prototype, 'removeEventListener')
      .mockImplementation(function (
        this: EventTarget,
        ...args: Parameters<EventTarget['removeEventListener']>
      ) {
        if (args[0] === 'abort') counts.set(this, (counts.get(this) ?? 1) - 1);
        return remove.apply(this, args);
      });
    try {
      const executor = new Executor({
        provider: new ScriptedProvider([]),
        tools: [
          { type: 'object', properties: { _tool: { const: 'echo' }, n: { type: 'number' } } },
        ],
        activities: [{ echo: async (params) => params.n }],
        concurrency: 50,
      });
      const calls = Array.from({ length: 30 }, (_, n) => ({ _tool: 'echo', n }));
      const batch = await executor.all(calls, []);
      expect(batch.ok).toBe(true);
      expect(batch.results).toHaveLength(30);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      addSpy.mockRestore();
      removeSpy.mockRestore();
    }
  });
});
