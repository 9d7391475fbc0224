import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { warnDeprecated } from '../internal/deprecation';
import type { ActivityFunction, ActivityMap } from './activity';

/**
 * What `new Executor({ activities })` takes: `ActivityMap[]`, the shape of `createContainer`'s
 * `activities` without service classes (those need a container). A single `Record` still works,
 * with a one-time deprecation warning.
 */
export type ExecutorActivities = ActivityMap[] | Record<string, ActivityFunction>;

/** Merges the Activity maps into one record by name; rejects duplicates and non-functions. @internal */
export function normalizeExecutorActivities(
  activities: ExecutorActivities | undefined,
): Record<string, ActivityFunction> {
  if (activities === undefined) return {};
  if (!Array.isArray(activities)) {
    if (typeof activities !== 'object' || activities === null) {
      throw invalid(`expected an array of { name: fn } maps, got ${describe(activities)}.`);
    }
    warnDeprecated(
      'IDEACT_DEP_ACTIVITIES_RECORD',
      'new Executor({ activities: { name: fn } }) is deprecated: pass an array of maps, `activities: [{ name: fn }]`, the shape createContainer and createAgent take.',
    );
    return collect([activities]);
  }
  return collect(activities);
}

function collect(maps: readonly unknown[]): Record<string, ActivityFunction> {
  const merged: Record<string, ActivityFunction> = {};
  const sources: Record<string, string> = {};
  maps.forEach((map, index) => {
    if (typeof map === 'function') {
      throw invalid(
        `activities[${index}] (${map.name ? `class ${map.name}` : 'a function'}) is not a { name: fn } map; new Executor cannot create @Service classes (they need a typedi container).`,
        [
          `Pass it to createContainer({ activities: [${map.name || 'MyService'}] }) or createAgent(…) and use container.get(Executor).`,
          'Or wrap its methods in a map: `[{ fetchWeather: (params, context) => service.fetch(params, context) }]`.',
        ],
      );
    }
    if (typeof map !== 'object' || map === null || Array.isArray(map)) {
      throw invalid(`activities[${index}] is ${describe(map)}, not a { name: fn } map.`);
    }
    for (const [name, activity] of Object.entries(map as Record<string, unknown>)) {
      if (typeof activity !== 'function') {
        throw invalid(`activities[${index}].${name} is ${describe(activity)}, not a function.`, [
          `Make ${name} a function \`(params, context) => output\`.`,
        ]);
      }
      if (Object.prototype.hasOwnProperty.call(merged, name)) {
        throw invalid(
          `two Activities are named "${name}": ${sources[name]} and activities[${index}].${name}.`,
          ['Rename one of them, or remove the duplicate.'],
        );
      }
      merged[name] = activity as ActivityFunction;
      sources[name] = `activities[${index}].${name}`;
    }
  });
  return merged;
}

function invalid(
  problem: string,
  solutions: readonly string[] = ['Pass `activities: [{ add: (params) => … }, otherMap]`.'],
): ContainerConfigurationError {
  return new ContainerConfigurationError({
    api: 'new Executor',
    setting: 'activities',
    problem,
    solutions,
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
