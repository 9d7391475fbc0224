/**
 * Workload fixtures shared by every framework adapter, so that each framework is asked to do exactly
 * the same work: the three W1 tools, the per-turn script, the W9 tool delay, the ~10-field W3 schema
 * and its fixed answer, and W10's streaming schedule and slow tool.
 */
import { performance } from 'node:perf_hooks';
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

// ── W10 eager calls (issue 16) ──────────────────────────────────────────────────────────────────────
/** W10: the model writes this many Calls in its first turn, one every `EAGER_CALL_EVERY_MS`. */
export const EAGER_CALLS = 5;
/** W10: the Call `i` (0-based) is complete at (i + 1) × this many ms after the stream started. */
export const EAGER_CALL_EVERY_MS = 200;
/** W10: what each tool body (ideact: Activity) takes. */
export const EAGER_ACTIVITY_MS = 200;
/** W10: each Call's text streams in this many pieces (a few characters each, as tokens come). */
export const EAGER_PIECES_PER_CALL = 8;

/** W10's one tool: `work({ index })`, whose body takes `EAGER_ACTIVITY_MS`. */
export const WORK_TOOL = {
  name: 'work',
  description: 'Does one slow piece of work.',
  zod: z.object({ index: z.number().int() }),
};

/** W10's Calls, as `{ name, args }` (each framework spells them its own way). */
export function eagerCallList() {
  return Array.from({ length: EAGER_CALLS }, (_, index) => ({
    name: WORK_TOOL.name,
    args: { index },
  }));
}

/**
 * W10's streaming schedule, the same for every framework: `segments[i]` is the text that completes
 * Call i (each framework its own spelling); it is cut into `EAGER_PIECES_PER_CALL` pieces spread
 * evenly over Call i's window, the last at (i + 1) × `EAGER_CALL_EVERY_MS`; `tail` (what closes the
 * reply) comes one piece interval after the last Call. Returns `[{ atMs, text, segment, last }]`.
 */
export function eagerSchedule(segments, tail) {
  const pieces = [];
  const interval = EAGER_CALL_EVERY_MS / EAGER_PIECES_PER_CALL;
  segments.forEach((text, segment) => {
    if (text.length < EAGER_PIECES_PER_CALL)
      throw new Error(`W10: segment ${segment} is too short`);
    for (let piece = 0; piece < EAGER_PIECES_PER_CALL; piece++) {
      const from = Math.round((piece * text.length) / EAGER_PIECES_PER_CALL);
      const to = Math.round(((piece + 1) * text.length) / EAGER_PIECES_PER_CALL);
      pieces.push({
        atMs: segment * EAGER_CALL_EVERY_MS + (piece + 1) * interval,
        text: text.slice(from, to),
        segment,
        last: piece === EAGER_PIECES_PER_CALL - 1,
      });
    }
  });
  if (tail !== undefined) {
    pieces.push({
      atMs: segments.length * EAGER_CALL_EVERY_MS + interval,
      text: tail,
      segment: segments.length,
      last: true,
    });
  }
  return pieces;
}

/** Yields the schedule's pieces, each at its time after the first `next()` (absolute: no drift). */
export async function* playSchedule(schedule) {
  const started = performance.now();
  for (const piece of schedule) {
    const wait = started + piece.atMs - performance.now();
    if (wait > 0) await sleep(wait);
    yield piece;
  }
}

/**
 * W10's tool body, the same for every framework: records when the framework started it, then waits
 * `EAGER_ACTIVITY_MS`, alone (`independent`) or holding `slot` (one at a time: a resource that
 * serves one request at a time, e.g. a rate-limited API or one database connection).
 */
export function workBody({ counter, starts, origin, slot }) {
  return async ({ index }) => {
    counter.runs++;
    starts[index] = performance.now() - origin.at;
    if (slot) await slot.hold(() => delay(EAGER_ACTIVITY_MS));
    else await delay(EAGER_ACTIVITY_MS);
    return { index, done: true };
  };
}

/** A resource that serves one holder at a time (FIFO). */
export function oneSlot() {
  let tail = Promise.resolve();
  return {
    hold(body) {
      const run = tail.then(body);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}
