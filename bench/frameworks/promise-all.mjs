/**
 * The floor of W9, not a framework: a hand-written `Promise.all` over the same 100 tool bodies, each
 * awaiting the same timer, with no model and no framework between them. A framework's W9 wall time
 * minus this one is what the framework adds.
 */
import { FINAL_ANSWER, TOOLS, callForTurn, delay } from '../lib/fixtures.mjs';

export const id = 'promise-all';
export const label = 'Promise.all (floor)';
export const packageName = null;

/** The floor only exists for W9 (W1–W3 have no timers to wait for). */
export function unavailable(workload) {
  return workload === 'w9' ? undefined : 'the Promise.all floor is only measured in W9';
}

/** W9 floor: the `calls` tool bodies of one turn, each awaiting `toolDelayMs`, all at once. */
export async function parallelCalls({ calls, toolDelayMs = 0 }) {
  const counter = { runs: 0 };
  const byName = Object.fromEntries(TOOLS.map((definition) => [definition.name, definition]));
  await Promise.all(
    Array.from({ length: calls }, async (_, callIndex) => {
      const call = callForTurn(callIndex);
      counter.runs++;
      if (toolDelayMs > 0) await delay(toolDelayMs);
      return byName[call.name].run(call.args);
    }),
  );
  return { answer: FINAL_ANSWER, toolRuns: counter.runs, modelCalls: 0 };
}
