import { createLimiter } from '../../src/calls/concurrency';

/** A task that resolves when `release()` is called, recording when it started. */
function gate(started: string[], name: string) {
  let open!: (value: string) => void;
  const done = new Promise<string>((resolve) => {
    open = resolve;
  });
  return {
    task: () => {
      started.push(name);
      return done;
    },
    release: () => open(name),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter (R-CALL-4: a concurrency limit per batch)', () => {
  it('runs at most `limit` tasks at once, the rest in FIFO order as slots free up', async () => {
    const limiter = createLimiter(2);
    const started: string[] = [];
    const gates = ['a', 'b', 'c', 'd'].map((name) => gate(started, name));
    const results = gates.map((entry) => limiter.run(entry.task));
    expect(started).toEqual(['a', 'b']);
    expect(limiter.active).toBe(2);
    gates[1]!.release();
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(limiter.active).toBe(2);
    gates[0]!.release();
    gates[2]!.release();
    await turn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    gates[3]!.release();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect(limiter.active).toBe(0);
  });

  it('a task that throws or rejects fails its own promise and frees its slot', async () => {
    const limiter = createLimiter(1);
    const thrown = limiter.run(() => {
      throw new RangeError('synchronous');
    });
    await expect(thrown).rejects.toThrow('synchronous');
    const rejected = limiter.run(() => Promise.reject(new TypeError('asynchronous')));
    const after = limiter.run(() => Promise.resolve('ran'));
    await expect(rejected).rejects.toThrow('asynchronous');
    await expect(after).resolves.toBe('ran');
    expect(limiter.active).toBe(0);
  });

  it('treats a limit below 1 as 1 and a non-finite one as no limit', async () => {
    const one = createLimiter(0);
    const started: string[] = [];
    const first = gate(started, 'first');
    const running = one.run(first.task);
    const waiting = one.run(() => Promise.resolve('second'));
    expect(one.active).toBe(1);
    first.release();
    await expect(Promise.all([running, waiting])).resolves.toEqual(['first', 'second']);
    const unlimited = createLimiter(Number.POSITIVE_INFINITY);
    const many = Array.from({ length: 50 }, (_, index) => gate(started, `task ${index}`));
    const all = many.map((entry) => unlimited.run(entry.task));
    expect(unlimited.active).toBe(50);
    for (const entry of many) entry.release();
    await Promise.all(all);
    expect(unlimited.active).toBe(0);
  });
});
