/**
 * `npm run example -- plan`: the protocol's newer revision in one run. The model answers with ONE
 * Vessel of four Calls; ideact runs it as a dataflow graph (R-FLOW-1): `findFlight` and `forecast`
 * start at once, `findHotel` waits for the flight it reads (`†state.flight`), and `summarize` — a
 * delegated Call (`_delegate` to an Idea, `_scopes: ["state"]` appended to its own context) — waits
 * for both. The timeline printed from the run's events shows what ran in parallel. Offline it uses
 * scripted replies; the order comes from the data, not from the order the Calls were written in.
 */
import * as path from 'node:path';
import {
  createAgent,
  type AgentResult,
  type Provider,
  type RunEvent,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** The tools: two Activities that write the State, one that reads it, and a delegate. */
export const tools: ToolSchema[] = [
  {
    type: 'object',
    description: 'Finds a flight to the city; writes it to the State.',
    properties: {
      _tool: { const: 'findFlight' },
      to: { type: 'string' },
      _outputPath: { const: '†state.flight' },
    },
    required: ['_tool', 'to'],
  },
  {
    type: 'object',
    description: 'Finds a hotel for the arrival of a flight; writes it to the State.',
    properties: {
      _tool: { const: 'findHotel' },
      flight: { type: 'object', description: 'The flight (reference it: †state.flight).' },
      _outputPath: { const: '†state.hotel' },
    },
    required: ['_tool', 'flight'],
  },
  {
    type: 'object',
    description: 'The weather forecast of a city.',
    properties: { _tool: { const: 'forecast' }, city: { type: 'string' } },
    required: ['_tool', 'city'],
  },
  {
    type: 'object',
    description: 'Summarizes the trip (a delegated Idea that sees only the State).',
    properties: {
      _tool: { const: 'summarize' },
      flight: { type: 'object' },
      hotel: { type: 'object' },
      _delegate: { const: 'trip-summary.json' },
      _scopes: { const: ['state'] },
    },
    required: ['_tool', 'flight', 'hotel'],
  },
];

/** Each Activity takes 100 ms, so the timeline shows what ran at the same time. */
function wait<T>(value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), 100));
}

/** The Activities of the explicit tools. */
export const activities = {
  findFlight: ({ to }: Record<string, unknown>) =>
    wait({ number: 'AB123', to, arrives: '2026-12-04T10:40' }),
  findHotel: ({ flight }: Record<string, unknown>) =>
    wait({ name: 'Harbour Inn', checkIn: (flight as { arrives: string }).arrives.slice(0, 10) }),
  forecast: ({ city }: Record<string, unknown>) => wait({ city, days: ['snow', 'sun', 'sun'] }),
};

/** The offline replies: the plan (written with summarize FIRST), the delegate's answer, the answer. */
export function planScript(): ScriptedProvider {
  return new ScriptedProvider((request) => {
    if (request.schemaName === 'tripSummary') {
      return { summary: 'You fly AB123 to Oslo and stay at the Harbour Inn. Pack for snow.' };
    }
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    if (turn > 0) return { calls: [], output: 'Booked: flight AB123, Harbour Inn, snow expected.' };
    return {
      calls: [
        { _tool: 'summarize', flight: '†state.flight', hotel: '†state.hotel' },
        { _tool: 'findHotel', flight: '†state.flight' },
        { _tool: 'findFlight', to: 'Oslo' },
        { _tool: 'forecast', city: 'Oslo' },
      ],
      output: null,
    };
  });
}

/** One timeline line per Call start and end, relative to the first Call. */
export interface TimelineEntry {
  at: number;
  event: 'start' | 'end';
  tool: string;
}

/** Runs the trip planner and returns its result and the Calls' timeline (from the run's events). */
export async function planTrip(
  provider: Provider = planScript(),
): Promise<{ result: AgentResult<string>; timeline: TimelineEntry[] }> {
  const agent = createAgent({
    tools,
    activities: [activities],
    provider,
    moduleRoot: path.join(__dirname, 'ideas'),
  });
  const stream = agent.stream<string>({
    task: 'Plan my trip to Oslo next week.',
    context: [{ type: 'state', state: { traveller: { likes: 'quiet rooms' } } }],
  });
  const timeline: TimelineEntry[] = [];
  let first: number | undefined;
  const toolOf = new Map<string, string>();
  for await (const event of stream as AsyncIterable<RunEvent>) {
    if (event.type !== 'call-start' && event.type !== 'call-end') continue;
    if (event.path.length > 1) continue; // the delegate's own requests
    first ??= event.time;
    if (event.type === 'call-start') toolOf.set(event.callId, event.tool);
    timeline.push({
      at: Math.round(event.time - first),
      event: event.type === 'call-start' ? 'start' : 'end',
      tool: event.tool ?? toolOf.get(event.callId) ?? event.callId,
    });
  }
  const result = await stream.result;
  await agent.dispose();
  return { result, timeline };
}

/** Prints the timeline and the answer. */
export async function main(): Promise<void> {
  process.stdout.write(
    'Offline: scripted model replies (the same every time), real Activities.\n\n',
  );
  const { result, timeline } = await planTrip();
  process.stdout.write('The plan ran as a dataflow graph (ms from the first Call):\n');
  for (const entry of timeline) {
    process.stdout.write(
      `  ${String(entry.at).padStart(4)} ms  ${entry.event.padEnd(5)} ${entry.tool}\n`,
    );
  }
  const summary = result.state.nodes.find(
    (node) => node.message.type === 'result' && node.message.call._tool === 'summarize',
  );
  if (summary?.message.type === 'result') {
    process.stdout.write(`\nDelegate's summary: ${JSON.stringify(summary.message.output)}\n`);
  }
  process.stdout.write(`Answer: ${String(result.output)} (stop reason: ${result.stopReason})\n`);
}

if (require.main === module) {
  void main();
}
