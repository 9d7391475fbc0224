import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Idea, ProviderRequest, RunEvent, ToolSchema } from 'ideact';

/** Shared by the issue 16 tests (runs, events, usage): tools, Ideas and a module root holding them. */

/** A plain Activity tool: `weather({ city })`. */
export const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

/** A module Call whose Idea is a plain request (one sub-request). */
export const summarizeTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'summarize' },
    _module: { const: 'summarize.json' },
    text: { type: 'string' },
  },
  required: ['_tool', 'text'],
};

/** A module Call whose Idea offers tools: it runs as a nested agent (R-MOD-5). */
export const plannerTool: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'planner' },
    _module: { const: 'planner.json' },
    job: { type: 'string' },
  },
  required: ['_tool', 'job'],
};

const summarizeIdea: Idea = {
  name: 'summarize',
  context: [{ type: 'system', text: 'You are summarizer.' }],
  schema: {
    type: 'object',
    properties: { summary: { type: 'string' } },
    required: ['summary'],
    additionalProperties: false,
  },
};

const plannerIdea: Idea = {
  name: 'planner',
  context: [{ type: 'system', text: 'You are planner.' }],
  schema: {
    type: 'object',
    properties: {
      calls: { type: 'array', items: { anyOf: [weatherTool] } },
      output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['calls', 'output'],
    additionalProperties: false,
  },
};

/** A temporary module root with `summarize.json` (plain Idea) and `planner.json` (agent Idea). */
export async function makeRunModuleRoot(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-runs-')));
  await fs.writeFile(path.join(root, 'summarize.json'), JSON.stringify(summarizeIdea));
  await fs.writeFile(path.join(root, 'planner.json'), JSON.stringify(plannerIdea));
  return root;
}

/** Removes a module root made by {@link makeRunModuleRoot}. */
export async function removeRunModuleRoot(root: string): Promise<void> {
  await fs.rm(root, { recursive: true, force: true });
}

function promptOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/**
 * The top agent calls `summarize` (plain module) and `planner` (nested agent) in one Vessel, then
 * answers `done`; the planner calls `weather` once, then answers `plan`; the summarizer answers once.
 */
export function nestedScript(request: ProviderRequest): unknown {
  const prompt = promptOf(request);
  if (prompt.includes('You are summarizer.')) return { summary: 'short' };
  const sawResult = prompt.includes('## Result of');
  if (prompt.includes('You are planner.')) {
    return sawResult
      ? { calls: [], output: 'plan' }
      : { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null };
  }
  return sawResult
    ? { calls: [], output: 'done' }
    : {
        calls: [
          { _tool: 'summarize', text: 'a long text '.repeat(10) },
          { _tool: 'planner', job: 'plan my day' },
        ],
        output: null,
      };
}

/** A weather Activity that answers at once. */
export const sunny = {
  weather: (params: Record<string, unknown>) => ({ city: params.city, sky: 'sun' }),
};

/** Every event of `stream`, in order. */
export async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The events of one type (narrowed). */
export function ofType<TType extends RunEvent['type']>(
  events: readonly RunEvent[],
  type: TType,
): Array<Extract<RunEvent, { type: TType }>> {
  return events.filter((event): event is Extract<RunEvent, { type: TType }> => event.type === type);
}
