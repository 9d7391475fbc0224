import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createContainer,
  FileRunStore,
  startDevServer,
  type DevServer,
  type Idea,
  type ProviderRequest,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/**
 * A playground on fixture Tools and Ideas, for the server tests and the browser tests (issue 20):
 * a container with `order` (enum, nested object, array, defaults; an Activity), `deleteRecord`
 * (needsApproval), `summarize` (a module whose Idea has a data message), and an ideas folder with
 * the agent Ideas `planner` (offers `summarize`) and `cleaner` (offers `deleteRecord`, so its run
 * stops for approval). The model is a streaming ScriptedProvider.
 */

/** A Tool with an enum, a nested object, an array, defaults and required params (explicit). */
export const orderTool: ToolSchema = {
  type: 'object',
  description: 'Places an order for T-shirts.',
  properties: {
    _tool: { const: 'order' },
    size: { type: 'string', enum: ['S', 'M', 'L'], default: 'M', description: 'Shirt size.' },
    address: {
      type: 'object',
      description: 'Where to ship.',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
        country: { type: 'string', enum: ['NO', 'SE', 'DK'], default: 'NO' },
      },
      required: ['street', 'city'],
    },
    items: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Prints.' },
    express: { type: 'boolean', default: false },
  },
  required: ['_tool', 'size', 'address', 'items'],
};

/** A Tool whose Calls wait for a person's decision. */
export const deleteRecordTool: ToolSchema = {
  type: 'object',
  description: 'Deletes a record (asks for approval first).',
  needsApproval: true,
  properties: { _tool: { const: 'deleteRecord' }, id: { type: 'string' } },
  required: ['_tool', 'id'],
} as ToolSchema;

/** A module Tool: its Idea (summarize.json) has a system prompt and a data message. */
export const summarizeTool: ToolSchema = {
  type: 'object',
  description: 'Summarizes a text with the glossary.',
  properties: {
    _tool: { const: 'summarize' },
    _module: { const: 'summarize.json' },
    text: { type: 'string', description: 'The text to summarize.' },
  },
  required: ['_tool', 'text'],
};

/** The glossary the summarize Idea's data message holds (rendered into its request). */
export const GLOSSARY = { ideact: 'a framework for LLM agents', vessel: 'a solution with calls' };

const summarizeIdea: Idea = {
  name: 'summarize',
  description: 'Summarizes a text.',
  context: [
    { type: 'system', text: 'You are a summarizer. Use the glossary.' },
    { type: 'data', kind: 'glossary', data: GLOSSARY },
    {
      type: 'input',
      input: { text: 'example' },
      schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
  ],
  schema: {
    type: 'object',
    properties: { summary: { type: 'string' } },
    required: ['summary'],
    additionalProperties: false,
  },
};

const plannerIdea: Idea = {
  name: 'planner',
  description: 'Plans a task: summarizes it first, then answers with a plan.',
  context: [
    { type: 'system', text: 'You are a planner.' },
    {
      type: 'input',
      input: { goal: 'ship the release' },
      schema: {
        type: 'object',
        properties: { goal: { type: 'string', description: 'What to plan.' } },
        required: ['goal'],
      },
    },
  ],
  schema: {
    type: 'object',
    properties: {
      calls: { type: 'array', items: { anyOf: [summarizeTool] } },
      output: {
        anyOf: [
          { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] },
          { type: 'null' },
        ],
      },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  },
};

const cleanerIdea: Idea = {
  name: 'cleaner',
  description: 'Deletes an old record (which waits for approval), then reports.',
  context: [{ type: 'system', text: 'You are a cleaner.' }],
  schema: {
    type: 'object',
    properties: {
      calls: { type: 'array', items: { anyOf: [deleteRecordTool] } },
      output: {
        anyOf: [
          { type: 'object', properties: { cleaned: { type: 'boolean' } }, required: ['cleaned'] },
          { type: 'null' },
        ],
      },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  },
};

/** The fixture model: the summarizer answers a summary, the planner calls `summarize`, then plans. */
export function playgroundScript(request: ProviderRequest): unknown {
  const prompt = request.messages.map((message) => message.content).join('\n');
  if (prompt.includes('You are a summarizer.')) return { summary: 'A short summary.' };
  if (prompt.includes('You are a planner.')) {
    return prompt.includes('## Result of')
      ? { calls: [], output: { plan: 'Summarized, then planned.' } }
      : {
          calls: [{ _tool: 'summarize', text: 'The goal, in full.' }],
          output: null,
        };
  }
  if (prompt.includes('You are a cleaner.')) {
    return prompt.includes('## Result of')
      ? { calls: [], output: { cleaned: true } }
      : { calls: [{ _tool: 'deleteRecord', id: 'old-1' }], output: null };
  }
  throw new Error(`playgroundScript: unexpected request: ${prompt.slice(0, 200)}`);
}

/** Options of {@link startPlayground}. */
export interface StartPlaygroundOptions {
  /** The run store's folder (pass the same one again to see the history after a restart). */
  storeDir?: string;
  /** The built assets (default `dist/dev/assets`: run `npm run build` first for browser tests). */
  assetsDir?: string;
  /** Streaming of the scripted model (default 8 characters every 15 ms). */
  stream?: { chunkSize?: number; delayMs?: number };
}

/** A started fixture playground. */
export interface PlaygroundFixture {
  server: DevServer;
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  storeDir: string;
  ideasDir: string;
  provider: ScriptedProvider;
  /** Stops the server (the store and ideas folders stay; remove them with `cleanup`). */
  close(): Promise<void>;
  /** Stops the server and removes the folders it made. */
  cleanup(): Promise<void>;
}

/** Starts the fixture playground on 127.0.0.1, port 0 (a free one). */
export async function startPlayground(
  options: StartPlaygroundOptions = {},
): Promise<PlaygroundFixture> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-playground-')));
  const ideasDir = path.join(base, 'ideas');
  await fs.mkdir(ideasDir);
  await fs.writeFile(path.join(ideasDir, 'summarize.json'), JSON.stringify(summarizeIdea, null, 2));
  await fs.writeFile(path.join(ideasDir, 'planner.json'), JSON.stringify(plannerIdea, null, 2));
  await fs.writeFile(path.join(ideasDir, 'cleaner.json'), JSON.stringify(cleanerIdea, null, 2));
  const storeDir = options.storeDir ?? path.join(base, 'runs');
  const provider = new ScriptedProvider(playgroundScript, {
    stream: { chunkSize: 8, delayMs: 15, ...options.stream },
  });
  const container = createContainer({
    tools: [orderTool, deleteRecordTool, summarizeTool],
    activities: [
      {
        order: (params: Record<string, unknown>) => ({ orderId: 'A-1', ...params }),
        deleteRecord: (params: Record<string, unknown>) => ({ deleted: params.id }),
      },
    ],
    provider,
    moduleRoot: ideasDir,
  });
  const server = await startDevServer({
    container,
    ideasDir,
    provider,
    store: new FileRunStore({ dir: storeDir }),
    host: '127.0.0.1',
    port: 0,
    assetsDir:
      options.assetsDir ?? path.resolve(__dirname, '..', '..', '..', 'dist', 'dev', 'assets'),
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await server.close();
  };
  return {
    server,
    url: server.url,
    storeDir,
    ideasDir,
    provider,
    close,
    async cleanup() {
      await close();
      await fs.rm(base, { recursive: true, force: true });
    },
  };
}
