/**
 * Seed 004's example: a text message and two `user` data messages. The data messages merge
 * (JSON Merge Patch) and render as one text block — printed here exactly as the LLM sees it.
 */
import { mergeDataMessages, renderMessages, type Message } from 'ideact';

/** The context of seed 004: an instruction plus two data messages of kind `user`. */
export const context: Message[] = [
  { type: 'text', text: "Update the user's city to Austin" },
  {
    type: 'data',
    kind: 'user',
    description: 'Represents the current user.',
    data: { name: 'John Doe' },
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'number' },
        city: { type: 'string' },
      },
    },
  },
  { type: 'data', kind: 'user', data: { age: 30 } },
];

/** Renders the context and returns the printable transcript (role headers + contents). */
export function renderDataExample(): string {
  const merged = mergeDataMessages(context);
  const chat = renderMessages(context);
  const lines = [
    `${context.length} context messages → ${merged.length} after merging → ${chat.length} chat messages:`,
    '',
  ];
  for (const message of chat) {
    lines.push(`── ${message.role} ──`, message.content, '');
  }
  return lines.join('\n');
}

/** Prints the rendered context to stdout. */
export async function main(): Promise<void> {
  process.stdout.write(renderDataExample());
}

if (require.main === module) {
  void main();
}
