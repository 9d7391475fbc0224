import { InvalidVesselError } from '../errors/invalid-vessel.error';
import { UnknownToolError } from '../errors/unknown-tool.error';
import type { Call } from './call';
import { isPlainObject } from '../internal/is-plain-object';
import { toolName } from './read-tool';
import type { ToolSchema } from './tool-schema';
import type { VesselSolution } from './vessel-solution';

/**
 * Checks a Vessel solution's shape and that every Call names one of `tools`; returns
 * `{ calls, output }` (a missing output becomes null). Throws `InvalidVesselError` naming the JSON
 * path, or `UnknownToolError` listing the known tool names. Params are validated later, per call.
 */
export function parseVessel(solution: unknown, tools: readonly ToolSchema[]): VesselSolution {
  return parseVesselOf(solution, new Set(tools.map(toolName)));
}

/**
 * {@link parseVessel} with the tools' names already known: the agent keeps them with its Vessel
 * schema, so a turn builds no list of names (issue 28). @internal
 */
export function parseVesselOf(solution: unknown, known: ReadonlySet<string>): VesselSolution {
  if (!isPlainObject(solution)) {
    throw new InvalidVesselError({
      jsonPath: '',
      reason: `expected an object, got ${describe(solution)}`,
    });
  }
  const calls = solution.calls;
  if (!Array.isArray(calls)) {
    throw new InvalidVesselError({
      jsonPath: '/calls',
      reason: `expected an array of calls, got ${describe(calls)}`,
    });
  }
  // A loop with push, not `map`: the array stays packed however V8 compiles this (an optimized
  // `map` makes holey arrays, and every reader of `calls` would then meet a second shape, issue 28).
  const parsed: Call[] = [];
  for (let index = 0; index < calls.length; index++) {
    parsed.push(checkedCall(calls[index], index, known));
  }
  return { calls: parsed, output: solution.output === undefined ? null : solution.output };
}

/** One Call of the Vessel, checked: an object naming a known tool. */
function checkedCall(call: unknown, index: number, known: ReadonlySet<string>): Call {
  if (!isPlainObject(call)) {
    throw new InvalidVesselError({
      jsonPath: `/calls/${index}`,
      reason: `expected a call object, got ${describe(call)}`,
    });
  }
  if (typeof call._tool !== 'string') {
    throw new InvalidVesselError({
      jsonPath: `/calls/${index}/_tool`,
      reason: `expected a tool name string, got ${describe(call._tool)}`,
    });
  }
  if (!known.has(call._tool)) {
    throw new UnknownToolError({
      toolName: call._tool,
      knownTools: [...known],
      jsonPath: `/calls/${index}`,
    });
  }
  return call as Call;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}
