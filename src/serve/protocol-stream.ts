import type { StoredRunEvent } from '../runs/run-store';
import type { RouteContext } from './runs-routes';
import type { SseWriter } from './sse-response';

/**
 * Follows a run's journaled events for a front-end protocol's stream (the AI SDK's, AG-UI's): each
 * event is handled in order, one after the other (a handler may read the store first), then `end`
 * runs once when the run's segment ends. Returns what stops following (a disconnect).
 */
export function followForProtocol(
  context: RouteContext,
  runId: string,
  after: number,
  writer: SseWriter,
  handlers: {
    event(stored: StoredRunEvent): void | Promise<void>;
    end(): void | Promise<void>;
  },
): Promise<() => void> {
  let queue: Promise<void> = Promise.resolve();
  let ended = false;
  const enqueue = (work: () => void | Promise<void>): void => {
    queue = queue.then(work).catch((error: unknown) => {
      context.report(error);
      writer.close();
    });
  };
  return context.runs.events.follow(
    runId,
    after,
    {
      event: (stored) => enqueue(() => handlers.event(stored)),
      end: () =>
        enqueue(async () => {
          if (ended) return;
          ended = true;
          await handlers.end();
          writer.close();
        }),
    },
    async () => (await context.statusOf(runId)) === 'running',
  );
}

/** The number of the last journaled event of the run before its current segment began (0: none). */
export async function segmentStart(context: RouteContext, runId: string): Promise<number> {
  const events = await context.runs.events.read(runId, 0);
  let start = 0;
  for (const stored of events) {
    const event = stored.event;
    if (event.type === 'run-start' && event.runId === runId && event.path.length === 1) {
      start = stored.seq - 1;
    }
  }
  return start;
}

/** The number of the run's last journaled event (0: none). */
export async function lastSeq(context: RouteContext, runId: string): Promise<number> {
  const events = await context.runs.events.read(runId, 0);
  return events[events.length - 1]?.seq ?? 0;
}
