import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidParamsError } from '../../errors/invalid-params.error';
import { formatIssues, type ValidationIssue } from '../../errors/validation-issue';
import { isPlainObject } from '../../internal/is-plain-object';
import { validateJson } from '../../protocol/json-validation';
import type { Executor } from '../../runtime/executor';
import { RunContext } from '../../runtime/run-context';
import type { RunEvent } from '../../runtime/run-event';
import { structuredOutput, type ServedTool } from './mcp-tool-definition';

/** What the SDK hands a `tools/call` handler: the abort signal, progress token and notifier. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The `_meta` key of a failed call's result: `{ code, message }` of the ideact error. */
export const ERROR_META_KEY = 'ideact/error';

/**
 * Runs one `tools/call` through the executor (explicit Tools through their Activities, latent and
 * module Tools through the configured provider): arguments that do not match the inputSchema are a
 * JSON-RPC InvalidParams error naming each JSON path; a failed Call is an `isError` result the model
 * reads; an output is `structuredContent` plus a text rendering. The request's signal cancels the Call,
 * and with a progress token each run event (model request, nested Call) is a progress notification.
 */
export async function callServedTool(
  executor: Executor,
  served: ServedTool,
  args: Record<string, unknown> | undefined,
  extra: McpRequestExtra,
): Promise<CallToolResult> {
  const params = args ?? {};
  // `_` keys are ideact meta-fields (`_output`, `_outputPath`, …): the Tool fixes them, never a client.
  const meta = Object.keys(params).filter((key) => key.startsWith('_'));
  const issues = [
    ...meta.map((key) => ({
      path: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      message: 'is an ideact meta-field, not an argument: leave it out',
    })),
    ...validateJson(served.info.params, params),
  ];
  if (issues.length > 0) throw invalidArguments(served.info.name, issues);

  const progress = progressReporter(served.info.name, extra);
  progress?.report(`${served.info.name}: started`);
  const run = await executor.run({ ...params, _tool: served.info.name }, [], {
    signal: extra.signal,
    run: RunContext.detached({
      signal: extra.signal,
      ...(progress === undefined ? {} : { listener: (event) => progress.event(event) }),
    }),
  });
  if (run.error !== undefined) {
    // Class tools' own validators (ParamsValidationError) reject arguments the schema let through.
    if (InvalidParamsError.isInstance(run.error)) {
      throw invalidArguments(served.info.name, run.error.issues, run.error.message);
    }
    const { code, message } = run.error.toCallError();
    return {
      content: [{ type: 'text', text: `${code}: ${message}` }],
      isError: true,
      _meta: { [ERROR_META_KEY]: { code, message } },
    };
  }
  const output = run.output ?? null;
  return {
    content: [{ type: 'text', text: textOf(output) }],
    structuredContent: structuredOutput(served, output),
  };
}

/** The JSON-RPC error for arguments that do not match the tool's inputSchema (each JSON path named). */
export function invalidArguments(
  toolName: string,
  issues: readonly ValidationIssue[],
  message?: string,
): McpError {
  const text =
    message ??
    `Invalid arguments for tool "${toolName}":\n${formatIssues(issues)}\n` +
      'Call the tool again with arguments that match its inputSchema.';
  return new McpError(ErrorCode.InvalidParams, text, {
    code: InvalidParamsError.code,
    tool: toolName,
    issues: issues.map((issue) => ({ path: issue.path, message: issue.message })),
  });
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
): { report(message: string): void; event(event: RunEvent): void } | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  const report = (message: string): void => {
    if (extra.signal.aborted) return;
    progress += 1;
    // A lost notification must not fail the Call: progress is advisory.
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message },
      })
      .catch(() => undefined);
  };
  return {
    report,
    event(event) {
      const message = progressMessage(toolName, event);
      if (message !== undefined) report(message);
    },
  };
}

/** One line per run event worth telling a waiting client; deltas are too many to send. */
function progressMessage(toolName: string, event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run-start':
      return `${toolName}: nested run ${event.runId} started`;
    case 'request-start':
      return `${toolName}: model request ${event.requestId} started`;
    case 'request-end':
      return `${toolName}: model request ${event.requestId} done`;
    case 'call-start':
      return `${toolName}: call ${event.tool} started`;
    case 'call-end':
      return `${toolName}: call ${event.tool} done`;
    case 'step':
      return `${toolName}: ${event.module} step done`;
    case 'run-end':
      return `${toolName}: nested run ${event.runId} ended (${event.stopReason})`;
    default:
      return undefined;
  }
}
