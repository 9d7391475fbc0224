import { DecoratorError } from '../errors/decorator.error';
import type { ClassConstructor } from './class-types';
import { registerOnce } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';
import { assertReflectMetadata } from './reflect-metadata-check';

/**
 * Two uses, one name (the dual registry of R-TOOL-2):
 * - on a `@Tool` class: sets `_activity` to `name` (default: the tool's own name; `''` = latent);
 * - on a method of a typedi `@Service()` class: registers that method as the Activity `name`
 *   (default: the method name). Pass the service class to `createContainer({ activities })`.
 */
export function Activity(name?: string): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    if (propertyKey === undefined) {
      decorateToolClass(target as ClassConstructor, name);
    } else {
      decorateMethod(target, propertyKey, name);
    }
  }) as ClassDecorator & MethodDecorator;
}

function decorateToolClass(target: ClassConstructor, name: string | undefined): void {
  assertReflectMetadata('@Activity', target.name);
  if (name !== undefined && (typeof name !== 'string' || /\s/.test(name))) {
    throw new DecoratorError({
      decorator: '@Activity',
      target: target.name,
      problem: `${JSON.stringify(name)} is not a valid Activity name (a string without spaces).`,
      solutions: [
        "Name a registered Activity: `@Activity('fetchWeather')`.",
        "Use `@Activity()` to call the Activity registered under the tool's own name, or `@Activity('')` for a latent tool.",
      ],
    });
  }
  registerOnce('@Activity', getMetadataStorage().toolActivities, { target, name });
}

function decorateMethod(
  prototype: object,
  propertyKey: string | symbol,
  name: string | undefined,
): void {
  const owner = typeof prototype === 'function' ? (prototype as ClassConstructor) : undefined;
  const type = owner ?? (prototype.constructor as ClassConstructor);
  const where = `${type.name}.${String(propertyKey)}`;
  assertReflectMetadata('@Activity', where);
  if (owner !== undefined || typeof propertyKey === 'symbol') {
    throw new DecoratorError({
      decorator: '@Activity',
      target: where,
      problem:
        owner !== undefined
          ? 'Activities must be instance methods (the container creates the service instance).'
          : 'the method key is a symbol; Activities are registered by name.',
      solutions: [
        'Put @Activity() on a named instance method of a @Service() class.',
        "Give the Activity an explicit name: `@Activity('fetchWeather')`.",
      ],
    });
  }
  const activityName = name ?? propertyKey;
  if (typeof activityName !== 'string' || !/^\S+$/.test(activityName)) {
    throw new DecoratorError({
      decorator: '@Activity',
      target: where,
      problem: `${JSON.stringify(activityName)} is not a valid Activity name (non-empty, without spaces).`,
      solutions: [
        "Pass a name like `@Activity('fetchWeather')`, or omit it to use the method name.",
      ],
    });
  }
  const storage = getMetadataStorage();
  const clash = storage.serviceActivities.find(
    (record) => record.target === type && record.name === activityName,
  );
  if (clash) {
    throw new DecoratorError({
      decorator: '@Activity',
      target: where,
      problem: `${type.name}.${clash.methodName} already registers the Activity "${activityName}".`,
      solutions: ['Give one of the two methods another Activity name.'],
    });
  }
  storage.serviceActivities.push({ target: type, methodName: propertyKey, name: activityName });
}
