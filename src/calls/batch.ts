import { CallCancelledError } from '../errors/call-cancelled.error';
import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import { createLimiter } from './concurrency';
import type { CallRun } from './call-types';
import { failedRun } from './call-outcome';

/** How a batch decides (R-CALL-4): all must succeed, first success, first settled, or run everything. */
export type BatchMode = 'all' | 'any' | 'race' | 'allSettled';

/** Options of `all` / `any` / `race` / `allSettled`. */
export interface BatchOptions {
  /** Aborting it cancels every Call not yet settled. */
  signal?: AbortSignal;
  /** The instance for Calls that set no `_instance` (R-INST-1). */
  instance?: string;
  /** Overrides the executor's concurrency limit for this batch. */
  concurrency?: number;
}

/**
 * The outcome of a batch. Every Call gets its result message (cancelled ones a `CALL_CANCELLED`
 * error), in call order, each followed by its state patches.
 */
export interface BatchResult {
  /** `all`/`allSettled`: every Call succeeded; `any`: one succeeded; `race`: the first to settle succeeded. */
  ok: boolean;
  /** All messages to append, in call order: each Call's result, then its state patches. */
  messages: Message[];
  /** The same messages grouped per Call (index = position in the batch). */
  results: Message[][];
  /** `any`/`race`: index of the deciding Call (the first success / the first settled). */
  winner?: number;
  /** `any`/`race`: the winner's output, when it succeeded. */
  output?: unknown;
}

/**
 * Runs Calls with at most `concurrency` in flight. When the batch is decided (`all`: a failure;
 * `any`: a success; `race`: anything settled) the batch signal aborts: Calls not yet started are not
 * started, in-flight ones see their signal abort and settle at once as `CALL_CANCELLED`.
 * @internal
 */
export async function runBatch(
  mode: BatchMode,
  calls: Call[],
  runOne: (call: Call, signal: AbortSignal) => Promise<CallRun>,
  options: { concurrency: number; signal?: AbortSignal },
): Promise<BatchResult> {
  const limiter = createLimiter(options.concurrency);
  const controller = new AbortController();
  const outer = options.signal;
  const forward = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });

  // One listener for the whole batch (not one per Call, which trips Node's listener-leak warning
  // past ten Calls); it aborts the signals of the Calls in flight.
  const inFlight = new Set<AbortController>();
  controller.signal.addEventListener(
    'abort',
    () => {
      for (const own of inFlight) own.abort(controller.signal.reason);
    },
    { once: true },
  );

  const runs: CallRun[] = new Array<CallRun>(calls.length);
  let winner: number | undefined;

  const decide = (index: number, run: CallRun): void => {
    if (controller.signal.aborted) return;
    const label = `call #${index + 1} (tool "${String(calls[index]?._tool)}")`;
    if (mode === 'all' && run.error) {
      controller.abort(`${label} failed first, so the batch ("all") stopped`);
    } else if (mode === 'any' && !run.error) {
      winner = index;
      controller.abort(`${label} succeeded first ("any")`);
    } else if (mode === 'race') {
      winner = index;
      controller.abort(`${label} settled first ("race")`);
    }
  };

  try {
    await Promise.all(
      calls.map((call, index) =>
        limiter.run(async () => {
          if (controller.signal.aborted) {
            runs[index] = failedRun(call, notStarted(controller.signal, call));
            return;
          }
          // A signal per Call, unlinked once it settles: a finished Call never sees a later abort.
          const own = new AbortController();
          inFlight.add(own);
          let run: CallRun;
          try {
            run = await runOne(call, own.signal);
          } finally {
            inFlight.delete(own);
          }
          runs[index] = run;
          decide(index, run);
        }),
      ),
    );
  } finally {
    outer?.removeEventListener('abort', forward);
  }

  const result: BatchResult = {
    ok: isOk(mode, runs, winner),
    messages: runs.flatMap((run) => run.messages),
    results: runs.map((run) => run.messages),
  };
  if (winner !== undefined) {
    result.winner = winner;
    const won = runs[winner];
    if (won && !won.error) result.output = won.output;
  }
  return result;
}

function isOk(mode: BatchMode, runs: CallRun[], winner: number | undefined): boolean {
  if (mode === 'all' || mode === 'allSettled') return runs.every((run) => !run.error);
  if (winner === undefined) return false;
  return !runs[winner]?.error;
}

function notStarted(signal: AbortSignal, call: Call): CallCancelledError {
  return new CallCancelledError({
    toolName: String(call._tool),
    reason: `not started because ${reasonText(signal)}`,
  });
}

function reasonText(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'the caller aborted the batch';
}
