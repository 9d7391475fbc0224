import type { StoredRunEvent } from '../runs/run-store';
import { checkInputSize, preparedInput, targetOf, type RouteContext } from './runs-routes';
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

/**
 * A conversation's next user message (a chat's, an AG-UI thread's): it continues the conversation's
 * run when there is one, else starts a run of the target `body` names with `input` (checked against
 * its input schema; `inputPath` names it in the 400) and labels it with the conversation's id.
 * Returns the run and the last event seq before this segment (where the stream starts after).
 */
export async function continueOrStart(
  context: RouteContext,
  conversation: {
    existing: string | undefined;
    task: string;
    body: Record<string, unknown>;
    inputPath: string;
    label: Record<string, string>;
  },
): Promise<{ runId: string; after: number }> {
  const { runs, principal } = context;
  const { existing, task, body } = conversation;
  checkInputSize(body.input, task, context.maxInputBytes);
  if (existing !== undefined) {
    const after = await lastSeq(context, existing);
    await runs.continueRun(principal, existing, task);
    return { runId: existing, after };
  }
  const target = targetOf(runs, body);
  const prepared = await preparedInput(target, body.input, task, conversation.inputPath);
  const runId = await runs.start(principal, target, prepared, conversation.label);
  return { runId, after: 0 };
}
