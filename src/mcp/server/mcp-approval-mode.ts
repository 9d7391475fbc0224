/**
 * How an MCP server gets a Tool that needs approval approved: `'ask'` (the default) asks the
 * client's user by elicitation and never runs the Tool without a yes; `'skip'` runs such Tools
 * without asking (an explicit opt-out: the server warns at start).
 */
export type McpApprovalMode = 'ask' | 'skip';
