import { Container, type Constructable, type ContainerInstance } from 'typedi';
import type { ServiceClass } from '../decorators/class-types';
import { getMetadataStorage } from '../decorators/metadata-storage';
import { ContainerConfigurationError } from '../errors/container-configuration.error';
import type { ActivityContext, ActivityFunction } from '../calls/activity';
import { assertInjectableConstructor, completeInjectedConstructors } from './constructor-injection';

/** Activities of a container by name, and where each came from (for messages). @internal */
export interface CollectedActivities {
  activities: Record<string, ActivityFunction>;
  sources: Record<string, string>;
}

/**
 * Registers `config.activities`: methods with `@Activity()` of service classes (resolved from the
 * container on each call, so `container.set(Dependency, fake)` before the first call takes effect) and
 * plain `{ name: fn }` maps. Rejects duplicates and classes without Activities. @internal
 */
export function collectActivities(
  entries: readonly unknown[] | undefined,
  container: ContainerInstance,
): CollectedActivities {
  const activities: Record<string, ActivityFunction> = {};
  const sources: Record<string, string> = {};
  const add = (name: string, activity: ActivityFunction, source: string): void => {
    if (Object.prototype.hasOwnProperty.call(activities, name)) {
      throw new ContainerConfigurationError({
        setting: 'activities',
        problem: `two Activities are named "${name}": ${sources[name]} and ${source}.`,
        solutions: [
          "Rename one of them: `@Activity('otherName')` or another key in the map.",
          'Remove the duplicate entry from `activities`.',
        ],
      });
    }
    activities[name] = activity;
    sources[name] = source;
  };

  if (entries !== undefined && !Array.isArray(entries)) {
    throw new ContainerConfigurationError({
      setting: 'activities',
      problem: `expected an array of @Service classes or { name: fn } maps, got ${typeof entries}.`,
      solutions: ['Pass `activities: [WeatherService, { now: () => Date.now() }]`.'],
    });
  }
  completeInjectedConstructors();
  (entries ?? []).forEach((entry, index) => {
    if (typeof entry === 'function') {
      registerService(entry as ServiceClass, index, container, add);
      return;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ContainerConfigurationError({
        setting: 'activities',
        problem: `activities[${index}] is ${entry === null ? 'null' : Array.isArray(entry) ? 'an array' : typeof entry}, not a service class or a { name: fn } map.`,
        solutions: [
          'Pass a @Service() class with @Activity() methods, or `{ name: async (params) => … }`.',
        ],
      });
    }
    for (const [name, activity] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof activity !== 'function') {
        throw new ContainerConfigurationError({
          setting: 'activities',
          problem: `activities[${index}].${name} is ${typeof activity}, not a function.`,
          solutions: [`Make ${name} a function \`(params, context) => output\`.`],
        });
      }
      add(name, activity as ActivityFunction, `activities[${index}].${name}`);
    }
  });
  return { activities, sources };
}

function registerService(
  type: ServiceClass,
  index: number,
  container: ContainerInstance,
  add: (name: string, activity: ActivityFunction, source: string) => void,
): void {
  const records = getMetadataStorage().serviceActivitiesOf(type);
  if (records.length === 0) {
    throw new ContainerConfigurationError({
      setting: 'activities',
      problem: `activities[${index}] (class ${type.name}) has no method decorated with @Activity().`,
      solutions: [
        `Decorate the methods of ${type.name} that implement Activities with @Activity().`,
        'If getMetadataStorage().reset() ran after the class was declared, declare it after the reset.',
        ...(getMetadataStorage().findOwn(getMetadataStorage().tools, type)
          ? [`${type.name} is a @Tool class: move it to \`tools\`.`]
          : []),
      ],
    });
  }
  const identifier = type as unknown as Constructable<object>;
  const registered = Container.has(identifier);
  if (!registered && type.length > 0) {
    throw new ContainerConfigurationError({
      setting: 'activities',
      problem: `class ${type.name} takes constructor dependencies but is not a typedi service.`,
      solutions: [
        `Decorate ${type.name} with @Service() from typedi so its dependencies are injected.`,
        "Make sure `import 'reflect-metadata'` runs before the class is declared.",
      ],
    });
  }
  // Without decorator metadata, typedi needs an @Inject on every constructor parameter.
  if (registered) assertInjectableConstructor(type);
  if (!registered) {
    // A plain class without dependencies: register it in this container only.
    container.set({ id: identifier, type: identifier });
  }
  for (const record of records) {
    const activity: ActivityFunction = (params, context: ActivityContext) => {
      const instance = container.get(identifier) as Record<string, unknown>;
      const method = instance[record.methodName];
      if (typeof method !== 'function') {
        throw new ContainerConfigurationError({
          setting: 'activities',
          problem: `${type.name}.${record.methodName} is not a method of the resolved service instance.`,
          solutions: [
            `If you replaced ${type.name} with container.set(), give the replacement a ${record.methodName}() method.`,
          ],
        });
      }
      return (method as (...args: unknown[]) => unknown).call(instance, params, context);
    };
    add(record.name, activity, `activities[${index}] (${type.name}.${record.methodName})`);
  }
}
