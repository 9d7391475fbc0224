import type { JournalEntry, RunStore } from 'ideact';
import { JournalQueue } from '../../src/runs/journal-queue';

/** A store whose appends wait until the test releases them, recording each batch. */
function heldStore() {
  const batches: string[][] = [];
  const releases: Array<(error?: Error) => void> = [];
  const store = {
    append: (_runId: string, entries: readonly JournalEntry[]) => {
      batches.push(entries.map((entry) => (entry as { callId: string }).callId));
      return new Promise<void>((resolve, reject) => {
        releases.push((error) => (error === undefined ? resolve() : reject(error)));
      });
    },
  } as unknown as RunStore;
  const release = async (error?: Error) => {
    releases.shift()?.(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { store, batches, release };
}

const entry = (callId: string): JournalEntry => ({
  type: 'call-start',
  callId,
  attempt: 1,
  time: new Date(0).toISOString(),
});

describe('JournalQueue: a run’s writes in order, batched while one is in flight (issue 31)', () => {
  it('entries written while an append is in flight go out together, in order, once it ends', async () => {
    const { store, batches, release } = heldStore();
    const queue = new JournalQueue(store, 'run-1');
    const settled: string[] = [];
    const write = (callId: string) => queue.write(entry(callId)).then(() => settled.push(callId));
    const writes = [write('a'), write('b'), write('c')];
    expect(batches).toEqual([['a']]);
    await release();
    expect(batches).toEqual([['a'], ['b', 'c']]);
    expect(settled).toEqual(['a']);
    void write('d');
    await release();
    expect(settled).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
    await release();
    await Promise.all(writes);
    await queue.settled();
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });

  it('settled() waits for every write so far; with nothing in flight it resolves at once', async () => {
    const { store, release } = heldStore();
    const queue = new JournalQueue(store, 'run-1');
    await queue.settled();
    void queue.write(entry('a'));
    void queue.write(entry('b'));
    let done = false;
    const settled = queue.settled().then(() => (done = true));
    await release();
    expect(done).toBe(false);
    await release();
    await settled;
    expect(done).toBe(true);
  });

  it('after a failed append, the waiting entries and every later write fail with its error, and nothing more is appended', async () => {
    const { store, batches, release } = heldStore();
    const queue = new JournalQueue(store, 'run-1');
    const failure = new Error('disk full');
    const first = queue.write(entry('a')).catch((error: unknown) => error);
    const second = queue.write(entry('b')).catch((error: unknown) => error);
    await release(failure);
    expect(await first).toBe(failure);
    expect(await second).toBe(failure);
    await expect(queue.write(entry('c'))).rejects.toBe(failure);
    await expect(queue.settled()).rejects.toBe(failure);
    expect(() => queue.throwIfFailed()).toThrow(failure);
    expect(batches).toEqual([['a']]);
  });

  it('a deferred write goes out on the loop’s next turn with the deferred writes made meanwhile', async () => {
    const { store, batches, release } = heldStore();
    const queue = new JournalQueue(store, 'run-1');
    const written = [
      queue.write(entry('a'), { defer: true }),
      queue.write(entry('b'), { defer: true }),
    ];
    await Promise.resolve();
    expect(batches).toEqual([]);
    // written() waits without hurrying the batch.
    void queue.written();
    expect(batches).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a', 'b']]);
    await release();
    await Promise.all(written);
  });

  it('an awaited write sends the deferred entries at once, itself with them; settled() does too', async () => {
    const { store, batches, release } = heldStore();
    const queue = new JournalQueue(store, 'run-1');
    void queue.write(entry('a'), { defer: true });
    const started = queue.write(entry('start'));
    expect(batches).toEqual([['a', 'start']]);
    await release();
    await started;
    void queue.write(entry('b'), { defer: true });
    const settled = queue.settled();
    expect(batches).toEqual([['a', 'start'], ['b']]);
    await release();
    await settled;
    // Behind an append in flight, a deferred write waits for it like any other.
    void queue.write(entry('c'));
    void queue.write(entry('d'), { defer: true });
    await release();
    expect(batches).toEqual([['a', 'start'], ['b'], ['c'], ['d']]);
    await release();
    await queue.settled();
  });

  it('a failed deferred append fails its writes and every later one', async () => {
    const { store, batches, release } = heldStore();
    const queue = new JournalQueue(store, 'run-1');
    const failure = new Error('disk full');
    const first = queue.write(entry('a'), { defer: true }).catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    await release(failure);
    expect(await first).toBe(failure);
    await expect(queue.write(entry('b'), { defer: true })).rejects.toBe(failure);
    await expect(queue.written()).rejects.toBe(failure);
    expect(batches).toEqual([['a']]);
  });
});
