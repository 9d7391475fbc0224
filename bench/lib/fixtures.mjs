/**
 * Workload fixtures shared by every framework adapter, so that each framework is asked to do exactly
 * the same work: the three W1 tools, the per-turn script, the W9 tool delay, the ~10-field W3 schema
 * and its fixed answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

/** The three tools of W1/W2: trivial, instant bodies so that only framework overhead is measured. */
export const TOOLS = [
  {
    name: 'add',
    description: 'Adds two numbers and returns their sum.',
    zod: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => ({ sum: a + b }),
  },
  {
    name: 'lookup',
    description: 'Looks a key up in a small in-memory table.',
    zod: z.object({ key: z.string() }),
    run: ({ key }) => ({ key, value: `value-of-${key}` }),
  },
  {
    name: 'echo',
    description: 'Returns the text it was given.',
    zod: z.object({ text: z.string() }),
    run: ({ text }) => ({ text }),
  },
];

/** Waits `ms` milliseconds on a timer: W9's tool bodies and its hand-written Promise.all floor. */
export function delay(ms) {
  return sleep(ms);
}

/** JSON Schema of each tool's params (derived from the same zod schema every peer uses). */
export function toolParamsJsonSchema(tool) {
  const schema = z.toJSONSchema(tool.zod);
  delete schema.$schema;
  return schema;
}

/** The call the scripted model makes on turn `turn` (0-based): tool `turn % 3` with turn-specific args. */
export function callForTurn(turn) {
  const tool = TOOLS[turn % TOOLS.length];
  if (tool.name === 'add') return { name: 'add', args: { a: turn, b: 1 } };
  if (tool.name === 'lookup') return { name: 'lookup', args: { key: `k${turn}` } };
  return { name: 'echo', args: { text: `turn ${turn}` } };
}

/** The final answer text of every tool-loop/parallel run. */
export const FINAL_ANSWER = 'done';

/** The ~10-field schema of W3 (zod for the peers; its JSON Schema for ideact). */
export const PROFILE_ZOD = z.object({
  id: z.string(),
  name: z.string(),
  age: z.number().int(),
  email: z.string(),
  active: z.boolean(),
  score: z.number(),
  tags: z.array(z.string()),
  address: z.object({ street: z.string(), city: z.string() }),
  role: z.enum(['admin', 'editor', 'viewer']),
  createdAt: z.string(),
});

/** JSON Schema of the W3 schema, generated from the zod one so both sides validate the same contract. */
export function profileJsonSchema() {
  const schema = z.toJSONSchema(PROFILE_ZOD);
  delete schema.$schema;
  return schema;
}

/** The fixed valid object the instant models return for W3 (validation still runs on it). */
export const PROFILE_VALUE = {
  id: 'u-42',
  name: 'Ada Lovelace',
  age: 36,
  email: 'ada@example.com',
  active: true,
  score: 98.5,
  tags: ['math', 'engines', 'poetry'],
  address: { street: '12 St James Square', city: 'London' },
  role: 'editor',
  createdAt: '1843-07-10T00:00:00Z',
};
