import { getEventListeners } from 'node:events';
import { linkedSignal } from '../../src/internal/linked-signal';

/**
 * Issue 27 item 9: a worker's agent step follows the worker's stop signal and the workflow's cancel
 * signal through a signal of its own that leaves nothing on them once released (AbortSignal.any
 * leaves a record on a source for the source's lifetime).
 */
describe('linkedSignal (a worker step’s signal)', () => {
  it('aborts with the reason of the source that aborted, and then listens to none', () => {
    const stop = new AbortController();
    const cancel = new AbortController();
    const linked = linkedSignal([stop.signal, undefined, cancel.signal]);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    expect(linked.signal.aborted).toBe(false);
    const reason = new Error('cancelled');
    cancel.abort(reason);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe(reason);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('release() removes its listeners: a thousand steps leave the long-lived source as they found it', () => {
    const stop = new AbortController();
    for (let step = 0; step < 1_000; step++) linkedSignal([stop.signal]).release();
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    const released = linkedSignal([stop.signal]);
    released.release();
    stop.abort(new Error('stopping'));
    expect(released.signal.aborted).toBe(false);
  });

  it('a source aborted already aborts it at once, adding no listener', () => {
    const stop = new AbortController();
    const cancel = new AbortController();
    stop.abort('gone');
    const linked = linkedSignal([cancel.signal, stop.signal]);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('gone');
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
  });
});
