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
  const known = tools.map(toolName);
  const knownSet = new Set(known);
  const parsed = calls.map((call: unknown, index): Call => {
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
    if (!knownSet.has(call._tool)) {
      throw new UnknownToolError({
        toolName: call._tool,
        knownTools: known,
        jsonPath: `/calls/${index}`,
      });
    }
    return call as Call;
  });
  return { calls: parsed, output: solution.output === undefined ? null : solution.output };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}
