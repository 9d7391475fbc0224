import type { ApprovalDecision } from '../calls/call-approval';
import { AgUiEventStream } from './ag-ui-events';
import { isJsonObject, readJsonObject } from './http-messages';
import { continueOrStart, followForProtocol, lastSeq } from './protocol-stream';
import { runStateValue } from './run-state-value';
import type { RouteContext } from './runs-routes';
import { isRootEnd } from './served-events';
import { LABELS } from './served-runs';
import { sseResponse } from './sse-response';
import { ServeRequestError } from './serve-request-error';

/**
 * `POST /ag-ui` (issue 32 item 2): a RunAgentInput from an AG-UI client (`HttpAgent`, CopilotKit),
 * answered with AG-UI events. A thread is one ideact run (labelled with the thread id): the first
 * request starts it with the last user message as its task, later ones continue it with a new user
 * message, and `resume` entries answering its interrupts (tool approvals) resume it with decisions.
 */

/** Answers `POST /ag-ui`, or undefined for anything else. */
export async function handleAgUiRoute(
  context: RouteContext,
  request: Request,
  segments: string[],
): Promise<Response | undefined> {
  if (request.method !== 'POST' || segments.length !== 1) return undefined;
  const body = await readJsonObject(request, context.maxBodyBytes);
  const threadId = typeof body.threadId === 'string' && body.threadId !== '' ? body.threadId : '';
  const aguiRunId = typeof body.runId === 'string' && body.runId !== '' ? body.runId : '';
  if (threadId === '' || aguiRunId === '') {
    throw new ServeRequestError(
      400,
      'INVALID_REQUEST',
      'Send an AG-UI RunAgentInput: `{ "threadId", "runId", "messages": [ … ], "resume"?: [ … ] }`.',
    );
  }
  const { runs, principal } = context;
  const existing = await runs.findLabelled(principal, LABELS.thread, threadId);
  const resume = Array.isArray(body.resume) ? body.resume.filter(isJsonObject) : [];
  let runId: string;
  let after = 0;
  if (resume.length > 0) {
    if (existing === undefined) {
      throw new ServeRequestError(
        404,
        'RUN_NOT_FOUND',
        `No run of thread "${threadId}" to resume.`,
      );
    }
    runId = existing;
    after = await lastSeq(context, runId);
    await runs.decide(principal, runId, decisionsOf(resume));
  } else {
    const forwarded = isJsonObject(body.forwardedProps) ? body.forwardedProps : {};
    ({ runId, after } = await continueOrStart(context, {
      existing,
      task: lastUserText(body.messages),
      body: forwarded,
      inputPath: '/forwardedProps/input',
      label: { [LABELS.thread]: threadId },
    }));
  }
  const initial = runStateValue((await runs.owned(principal, runId)).state);
  const events = new AgUiEventStream({ threadId, runId: aguiRunId, ideactRunId: runId });
  return sseResponse((writer) => {
    for (const event of events.start(initial)) writer.send(event);
    return followForProtocol(context, runId, after, writer, {
      async event(stored) {
        // The run's State as it ended goes in the last snapshot, before RUN_FINISHED.
        const state = isRootEnd(runId, stored.event)
          ? runStateValue((await runs.owned(principal, runId)).state)
          : undefined;
        for (const event of events.map(stored.event, state)) writer.send(event);
        // After an Actor step, the State its Calls wrote (as it is now), when it changed.
        if (events.changesState(stored.event)) {
          const now = runStateValue(await runs.currentState(principal, runId));
          for (const event of events.state(now)) writer.send(event);
        }
      },
      end: () => undefined,
    });
  }, context.headers);
}

/** The text of the last user message (AG-UI content is a string or a list of parts). */
function lastUserText(messages: unknown): string {
  const list = Array.isArray(messages) ? messages.filter(isJsonObject) : [];
  const user = [...list].reverse().find((message) => message.role === 'user');
  const content = user?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .filter(isJsonObject)
            .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
            .join('\n')
        : '';
  if (text.trim() === '') {
    throw new ServeRequestError(400, 'INVALID_REQUEST', 'Send a user message with text.', {
      path: '/messages',
    });
  }
  return text;
}

/** Resume entries as decisions: approved (maybe with edited args), else rejected. */
function decisionsOf(entries: Array<Record<string, unknown>>): Record<string, ApprovalDecision> {
  const decisions: Record<string, ApprovalDecision> = {};
  for (const entry of entries) {
    if (typeof entry.interruptId !== 'string') continue;
    const payload = isJsonObject(entry.payload) ? entry.payload : {};
    if (entry.status === 'resolved' && payload.approved === true) {
      decisions[entry.interruptId] = isJsonObject(payload.editedArgs)
        ? { edit: payload.editedArgs }
        : { approve: true };
    } else {
      decisions[entry.interruptId] = {
        reject: typeof payload.reason === 'string' ? payload.reason : 'Not approved.',
      };
    }
  }
  return decisions;
}
