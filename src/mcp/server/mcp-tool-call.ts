import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { IdeactError } from '../../errors/ideact-error';
import { InvalidParamsError } from '../../errors/invalid-params.error';
import { formatIssues, type ValidationIssue } from '../../errors/validation-issue';
import { isPlainObject } from '../../internal/is-plain-object';
import type { CallApproval } from '../../calls/call-approval';
import type { Executor } from '../../calls/executor';
import { RunContext } from '../../runs/run-context';
import type { RunEvent } from '../../runs/run-event';
import { structuredOutput, type ServedTool } from './mcp-tool-definition';
import { ERROR_META_KEY } from './mcp-meta-keys';

/** What the SDK hands a `tools/call` handler: the abort signal, progress token and notifier. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Runs one `tools/call` through the call pipeline (explicit Tools through their Activities, latent
 * and module Tools through the configured provider), adding only what MCP needs: arguments may not
 * set ideact meta-fields; a Tool that needs approval is approved the way `approval` says (the
 * server asks the client by elicitation); every failure — invalid arguments (SEP-1303: a tool
 * result, not a protocol error), a declined approval, a failed Call — is an `isError` result the
 * model reads; an output is `structuredContent` plus a text rendering. The request's signal cancels
 * the Call, and with a progress token each run event is a progress notification.
 */
export async function callServedTool(
  executor: Executor,
  served: ServedTool,
  args: Record<string, unknown> | undefined,
  extra: McpRequestExtra,
  approval: CallApproval,
): Promise<CallToolResult> {
  const params = args ?? {};
  // `_` keys are ideact meta-fields (`_output`, `_outputPath`, …): the Tool fixes them, never a client.
  const meta = Object.keys(params).filter((key) => key.startsWith('_'));
  if (meta.length > 0) {
    return invalidArguments(
      served.info.name,
      meta.map((key) => ({
        path: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        message: 'is an ideact meta-field, not an argument: leave it out',
      })),
    );
  }

  const progress = progressReporter(served.info.name, extra);
  const run = await executor.run({ ...params, _tool: served.info.name }, [], {
    signal: extra.signal,
    approval,
    run: RunContext.detached({
      signal: extra.signal,
      ...(progress === undefined ? {} : { listener: (event) => progress(event) }),
    }),
  });
  if (run.error !== undefined) return failedResult(served.info.name, run.error);
  const output = run.output ?? null;
  return {
    content: [{ type: 'text', text: textOf(output) }],
    structuredContent: structuredOutput(served, output),
  };
}

/**
 * The tool result for arguments that do not match the inputSchema (SEP-1303, MCP 2025-11-25): an
 * `isError` result naming each JSON path, so the model can correct the call and try again.
 */
function invalidArguments(toolName: string, issues: readonly ValidationIssue[]): CallToolResult {
  const error = new InvalidParamsError({ toolName, issues });
  return failedResult(toolName, error);
}

/** An `isError` result for a failed Call: its code and message as text, and in `_meta` for programs. */
function failedResult(toolName: string, error: IdeactError): CallToolResult {
  const { code, message } = error.toCallError();
  const issues = InvalidParamsError.isInstance(error) ? error.pointerIssues() : undefined;
  const text =
    issues === undefined
      ? `${code}: ${message}`
      : `${code}: invalid arguments for tool "${toolName}":\n${formatIssues(issues)}\n` +
        'Call the tool again with arguments that match its inputSchema.';
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: {
      [ERROR_META_KEY]: {
        code,
        message,
        tool: toolName,
        ...(issues === undefined
          ? {}
          : { issues: issues.map(({ path, message: text }) => ({ path, message: text })) }),
      },
    },
  };
}

/** The text rendering of an output: a string as it is, anything else as indented JSON. */
function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output, null, isPlainObject(output) || Array.isArray(output) ? 2 : 0);
}

/** Sends `notifications/progress` for a request that asked for it (a `progressToken`), else undefined. */
function progressReporter(
  toolName: string,
  extra: McpRequestExtra,
): ((event: RunEvent) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (event) => {
    const message = progressMessage(toolName, event);
    if (message === undefined || extra.signal.aborted) return;
    progress += 1;
    // A lost notification must not fail the Call: progress is advisory.
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message },
      })
      .catch(() => undefined);
  };
}

/** One line per run event worth telling a waiting client; deltas are too many to send. */
function progressMessage(toolName: string, event: RunEvent): string | undefined {
  // The served Call's own events are at the root of its run; deeper ones are its nested work.
  const own = event.path.length === 1;
  switch (event.type) {
    case 'run-start':
      return `${toolName}: nested run ${event.runId} started`;
    case 'request-start':
      return `${toolName}: model request ${event.requestId} started`;
    case 'request-end':
      return `${toolName}: model request ${event.requestId} done`;
    case 'call-start':
      return own ? `${toolName}: started` : `${toolName}: call ${event.tool} started`;
    case 'call-end':
      // The served Call's end is the response itself.
      return own ? undefined : `${toolName}: call ${event.tool} done`;
    case 'step':
      return `${toolName}: ${event.module} step done`;
    case 'run-end':
      return `${toolName}: nested run ${event.runId} ended (${event.stopReason})`;
    default:
      return undefined;
  }
}
