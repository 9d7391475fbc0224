import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Idea, Message, ToolSchema } from 'ideact';

/** Creates a temporary module root holding `files` (objects are written as JSON, strings as is). */
export async function makeModuleRoot(files: Record<string, unknown>): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-exec-')));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

/** Removes a temporary module root. */
export async function removeRoot(root: string): Promise<void> {
  await fs.rm(root, { recursive: true, force: true });
}

/** A small callable Idea: summarise a text. */
export const summarizeIdea: Idea = {
  name: 'summarize',
  context: [
    { type: 'system', text: 'MODULE-SYSTEM: summarise the input text in one sentence.' },
    {
      type: 'input',
      input: { text: 'EXAMPLE-INPUT-FROM-THE-IDEA' },
      schema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'MODULE-INPUT-SCHEMA' } },
        required: ['text'],
      },
    },
  ],
  schema: {
    type: 'object',
    properties: { summary: { type: 'string' } },
    required: ['summary'],
    additionalProperties: false,
  },
};

/** Builds a tool schema from a name, params and meta-fields. */
export function tool(
  name: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
): ToolSchema {
  return {
    type: 'object',
    properties: { _tool: { const: name }, ...properties } as ToolSchema['properties'],
    required: ['_tool', ...required],
  };
}

/** Strings that must never reach a module unless imported. */
export const SECRET = {
  system: 'PARENT-SYSTEM-PROMPT-7f3a',
  task: 'THE-PARENT-TASK-TEXT-19bc',
  password: 'hunter2-SECRET-DATA-5e1d',
  notes: 'PRIVATE-NOTES-KIND-88aa',
  result: 'EARLIER-RESULT-OUTPUT-c0de',
};

/** Strings of the messages an import may bring in. */
export const IMPORTABLE = {
  input: 'PARENT-INPUT-QUESTION-42',
  state: 'PARENT-STATE-STEP-77',
};

/** A parent context holding a secret data message, the task text and other kinds. */
export function parentContext(): Message[] {
  return [
    { type: 'system', text: SECRET.system },
    { type: 'text', text: SECRET.task },
    { type: 'data', kind: 'secret', data: { password: SECRET.password } },
    { type: 'input', input: { question: IMPORTABLE.input } },
    { type: 'state', state: { step: IMPORTABLE.state } },
    { type: 'data', kind: 'notes', data: SECRET.notes },
    { type: 'result', call: { _tool: 'earlier' }, output: SECRET.result },
  ];
}
