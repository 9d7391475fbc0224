/**
 * How the trip example runs: the replies a model would give and the agent that gets them. Kept apart
 * from the classes (tools.ts), so that a test can run the same script with the classes compiled by
 * different toolchains.
 */
import {
  createAgent,
  type ActivityMap,
  type AgentResult,
  type Provider,
  type ServiceClass,
  type ToolClass,
} from 'ideact';

/** Schema of the agent's final answer. */
export const TRIP_OUTPUT = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
} as const;

/** The Calls' params: Oslo → Bergen → Trondheim. */
export function tripParams(): Record<string, unknown> {
  return {
    traveller: 'Ada',
    days: 4,
    mode: 'train',
    pace: 'relaxed',
    interests: ['fjords', 'museums'],
    start: { lat: 59.91, lon: 10.75 },
    stops: [
      { name: 'Bergen', at: { lat: 60.39, lon: 5.32 } },
      { name: 'Trondheim', at: { lat: 63.43, lon: 10.39 } },
    ],
    budget: 900,
    departure: '2026-06-01',
  };
}

/** The replies a model would give, in order: the Call, then the answer. */
export function tripScript(): unknown[] {
  return [
    { calls: [{ _tool: 'planTrip', ...tripParams() }], output: null },
    { calls: [], output: { summary: 'Oslo → Bergen → Trondheim by train in 4 days.' } },
  ];
}

/**
 * Params an explicit call from code might send, wrong in five ways: a latitude of 200 in a nested
 * object, half a day, a departure that is not a date, a stop without a longitude, an unknown param.
 */
export function invalidTripParams(): Record<string, unknown> {
  return {
    ...tripParams(),
    days: 0.5,
    departure: 'next Monday',
    start: { lat: 200, lon: 10.75 },
    stops: [{ name: 'Bergen', at: { lat: 60.39 } }],
    hotel: 'any',
  };
}

/** Runs the trip agent with these Tools, Activities and provider. */
export async function runTrip(options: {
  tools: ToolClass[];
  activities: Array<ServiceClass | ActivityMap>;
  provider: Provider;
}): Promise<AgentResult> {
  const agent = createAgent(options);
  try {
    return await agent.run({
      task: 'Plan a relaxed train trip from Oslo through Bergen to Trondheim for Ada.',
      output: TRIP_OUTPUT as unknown as Record<string, unknown>,
      maxTurns: 5,
    });
  } finally {
    await agent.dispose();
  }
}

/** The `result` messages of a run (each Call's output or error), in order. */
export function callResults(result: AgentResult): unknown[] {
  return result.state.nodes
    .map((node) => node.message)
    .filter((message) => message.type === 'result');
}
