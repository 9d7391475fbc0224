import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ApprovalRequiredError } from '../../errors/approval-required.error';
import type { Approver, ApprovalRequest, CallApproval } from '../../calls/call-approval';
import { mcpServerSdk } from '../mcp-sdk';
import type { McpRequestExtra } from './mcp-tool-call';
import type { McpApprovalMode } from './mcp-approval-mode';

export type { McpApprovalMode } from './mcp-approval-mode';

/**
 * The call pipeline's approval for one `tools/call` (DESIGN §8: the policy is the pipeline's, asking
 * is the entry point's). `'ask'`: an `elicitation/create` request on the call's own stream showing
 * the tool and its arguments — accept runs it once, decline or cancel rejects it (an `isError`
 * result saying so); a client without the `elicitation` capability cannot be asked, so the tool is
 * not run (`ApprovalRequiredError`).
 */
export function mcpApproval(
  mode: McpApprovalMode,
  server: Server,
  extra: McpRequestExtra,
): CallApproval {
  if (mode === 'skip') return 'caller';
  const approver: Approver = async (request) => {
    if (!supportsFormElicitation(server)) {
      throw new ApprovalRequiredError({
        toolName: request.toolName,
        reason: 'this MCP client cannot be asked (it did not declare the "elicitation" capability)',
        solutions: [
          'Call it from a client that supports elicitation, or ask the server operator to start it with --no-approval (approval: "skip") if such tools may run unasked.',
        ],
      });
    }
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: approvalMessage(request),
          requestedSchema: { type: 'object', properties: {} },
        },
      },
      mcpServerSdk().types.ElicitResultSchema,
    );
    if (answer.action === 'accept') return { approve: true };
    return {
      reject: `the MCP client's user ${answer.action === 'decline' ? 'declined' : 'cancelled'} the approval`,
    };
  };
  return approver;
}

/** What the person approving sees: the tool, what it does, and the arguments it will run with. */
function approvalMessage(request: ApprovalRequest): string {
  const description = request.tool.description;
  return (
    `Approve running the tool "${request.toolName}"? It needs approval before it runs.\n` +
    (typeof description === 'string' && description !== '' ? `${description}\n` : '') +
    `Arguments: ${JSON.stringify(request.params, null, 2)}`
  );
}

/** Form-mode elicitation: declared as `elicitation: {}` (older clients) or `elicitation: { form }`. */
function supportsFormElicitation(server: Server): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation as
    Record<string, unknown> | undefined;
  if (elicitation === undefined) return false;
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}
