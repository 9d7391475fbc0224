import type { ApprovalDecision } from '../calls/call-approval';
import { isJsonObject, readJsonObject } from './http-messages';
import { continueOrStart, followForProtocol, lastSeq, segmentStart } from './protocol-stream';
import type { RouteContext } from './runs-routes';
import { LABELS } from './served-runs';
import { sseResponse } from './sse-response';
import { ServeRequestError } from './serve-request-error';
import { UI_MESSAGE_STREAM_HEADER, UiMessageStream } from './ui-message-stream';

/**
 * `POST /chat` and `GET /chat/:chatId/stream` (issue 32 item 2): what `useChat` from
 * `@ai-sdk/react` sends with its default transport, answered with the UI message stream. A chat is
 * one ideact run (labelled with the chat's id): the first user message starts it (the message's
 * text is the task), each next one continues it, and approval responses on the last assistant
 * message resume it with those decisions. `useChat({ resume: true })` reconnects through
 * `GET /chat/:chatId/stream`, which replays the running segment and follows it (204 when no run
 * of the chat is running).
 */

/** Answers the chat routes, or undefined when none matches. */
export async function handleChatRoutes(
  context: RouteContext,
  request: Request,
  segments: string[],
): Promise<Response | undefined> {
  const [, chatId, action, ...rest] = segments;
  if (rest.length > 0) return undefined;
  if (request.method === 'POST' && chatId === undefined) return postChat(context, request);
  if (request.method === 'GET' && chatId !== undefined && action === 'stream') {
    return resumeChat(context, chatId);
  }
  return undefined;
}

async function postChat(context: RouteContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, context.maxBodyBytes);
  const chatId = typeof body.id === 'string' && body.id !== '' ? body.id : undefined;
  const messages = Array.isArray(body.messages) ? body.messages.filter(isJsonObject) : [];
  const last = messages[messages.length - 1];
  if (chatId === undefined || last === undefined) {
    throw new ServeRequestError(
      400,
      'INVALID_REQUEST',
      'Send what useChat sends: `{ "id": "<chat id>", "messages": [ … ] }`.',
    );
  }
  const { runs, principal } = context;
  const existing = await runs.findLabelled(principal, LABELS.chat, chatId);
  let runId: string;
  let after = 0;
  if (last.role === 'assistant') {
    const decisions = approvalsOf(last);
    if (existing === undefined || Object.keys(decisions).length === 0) {
      throw new ServeRequestError(
        400,
        'NOTHING_TO_CONTINUE',
        "The last message is the assistant's and answers no approval request of this chat's run.",
      );
    }
    runId = existing;
    after = await lastSeq(context, runId);
    await runs.decide(principal, runId, decisions);
  } else {
    ({ runId, after } = await continueOrStart(context, {
      existing,
      task: textOf(last),
      body,
      inputPath: '/input',
      label: { [LABELS.chat]: chatId },
    }));
  }
  return uiStream(context, runId, after);
}

async function resumeChat(context: RouteContext, chatId: string): Promise<Response> {
  const runId = await context.runs.findLabelled(context.principal, LABELS.chat, chatId);
  const running =
    runId !== undefined &&
    (context.runs.isRunning(runId) || (await context.statusOf(runId)) === 'running');
  if (runId === undefined || !running) {
    return new Response(null, { status: 204, headers: context.headers });
  }
  // The client replays the message from its start: the running segment from its run-start.
  return uiStream(context, runId, await segmentStart(context, runId));
}

/** The UI message stream of the run's events after `after`, until its segment ends. */
function uiStream(context: RouteContext, runId: string, after: number): Response {
  const chunks = new UiMessageStream(runId);
  return sseResponse(
    (writer) => {
      for (const chunk of chunks.start()) writer.send(chunk);
      return followForProtocol(context, runId, after, writer, {
        event: (stored) => {
          for (const chunk of chunks.map(stored.event)) writer.send(chunk);
        },
        end: () => writer.raw('data: [DONE]\n\n'),
      });
    },
    { ...context.headers, ...UI_MESSAGE_STREAM_HEADER, 'x-ideact-run-id': runId },
  );
}

/** The text of a UI message (its text parts joined). */
function textOf(message: Record<string, unknown>): string {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  const text = parts
    .filter(
      (part): part is { type: 'text'; text: string } =>
        isJsonObject(part) && part.type === 'text' && typeof part.text === 'string',
    )
    .map((part) => part.text)
    .join('\n');
  if (text.trim() === '') {
    throw new ServeRequestError(400, 'INVALID_REQUEST', 'The last user message has no text.', {
      path: '/messages',
    });
  }
  return text;
}

/** The decisions a message's tool parts carry (`approval-responded`), by Call id. */
function approvalsOf(message: Record<string, unknown>): Record<string, ApprovalDecision> {
  const decisions: Record<string, ApprovalDecision> = {};
  for (const part of Array.isArray(message.parts) ? message.parts : []) {
    if (!isJsonObject(part) || part.state !== 'approval-responded') continue;
    const approval = part.approval;
    if (!isJsonObject(approval) || typeof approval.id !== 'string') continue;
    decisions[approval.id] =
      approval.approved === true
        ? { approve: true }
        : {
            reject: typeof approval.reason === 'string' ? approval.reason : 'Declined in the chat.',
          };
  }
  return decisions;
}
