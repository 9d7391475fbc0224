import type { ValidationIssue } from '../protocol/json-validation';
import { formatIssues } from '../protocol/json-validation';
import type { ChatMessage } from '../protocol/message';

/** How many issues a repair prompt lists; the rest are summarised so prompts stay short. */
const MAX_LISTED_ISSUES = 20;

/** The user message that asks the model to fix its previous reply (R-REQ-3). @internal */
export function repairPrompt(issues: readonly ValidationIssue[], schemaName: string): ChatMessage {
  const listed = formatIssues(issues.slice(0, MAX_LISTED_ISSUES));
  const more =
    issues.length > MAX_LISTED_ISSUES ? `\n… and ${issues.length - MAX_LISTED_ISSUES} more` : '';
  return {
    role: 'user',
    content:
      `Your previous reply is not a valid solution for the JSON Schema "${schemaName}":\n` +
      `${listed}${more}\n` +
      'Reply again with the complete corrected JSON only, keeping everything that was right.',
  };
}
