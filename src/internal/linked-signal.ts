/** An AbortSignal that follows other signals until it is released. @internal */
export interface LinkedSignal {
  /** Aborted (with the source's reason) as soon as one of the sources aborts. */
  readonly signal: AbortSignal;
  /** Stops following the sources (removes the listeners added to them). */
  release(): void;
}

/**
 * A signal that aborts when any of `sources` does, for work shorter than its sources (one step of a
 * long-lived worker). Unlike `AbortSignal.any`, which leaves a record on each source for as long as
 * the source lives (Node 20 never prunes them, so a worker's signal combined once per step grows
 * without bound), it listens to the sources with listeners that `release()` removes.
 */
export function linkedSignal(sources: ReadonlyArray<AbortSignal | undefined>): LinkedSignal {
  const controller = new AbortController();
  const listening: Array<[AbortSignal, () => void]> = [];
  const release = (): void => {
    for (const [source, listener] of listening.splice(0)) {
      source.removeEventListener('abort', listener);
    }
  };
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const listener = (): void => {
      release();
      controller.abort(source.reason);
    };
    source.addEventListener('abort', listener, { once: true });
    listening.push([source, listener]);
  }
  if (controller.signal.aborted) release();
  return { signal: controller.signal, release };
}
