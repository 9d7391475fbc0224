import type { RunEvent } from '../runs/run-event';
import type { AgentResult } from './agent-options';
import { EventChannel } from './event-channel';
import type { Run } from './run';

/**
 * A run's events as they happen (`agent.stream()`): iterate it with `for await`; `result` resolves to
 * the run's result (or rejects with the error that ended it, which the iteration throws too).
 */
export interface RunStream<TOutput = unknown> extends AsyncIterable<RunEvent> {
  /** The run being streamed (for `run.id`, `run.state`, `run.abort()`). */
  readonly run: Run;
  /** The run's id (as in every event's `runId` at the top level). */
  readonly runId: string;
  /** Resolves to the run's result once it ended. */
  readonly result: Promise<AgentResult<TOutput>>;
  /** Stops the run (stop reason `aborted`); the same as `run.abort(reason)`. */
  abort(reason?: unknown): void;
}

/** Streams `run`: subscribes before it starts, so no event is missed, then drives it to the end. @internal */
export function streamRun<TOutput>(run: Run): RunStream<TOutput> {
  const events = new EventChannel<RunEvent>();
  const unsubscribe = run.subscribe((event) => events.push(event));
  const result = run.result<TOutput>();
  // The iteration ends with the run, or throws the error that ended it (then `result` rejects too,
  // and reading only the events leaves no unhandled rejection).
  result.then(
    () => {
      unsubscribe();
      events.end();
    },
    (error: unknown) => {
      unsubscribe();
      events.fail(error);
    },
  );
  return {
    run,
    runId: run.id,
    result,
    abort: (reason?: unknown) => run.abort(reason),
    [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
  };
}
