import { DecoratorError } from '../errors/decorator.error';

/**
 * Fails fast when the `reflect-metadata` polyfill is not loaded: without it TypeScript's `design:*`
 * types are lost and class-validator/typedi silently see nothing.
 * @internal
 */
export function assertReflectMetadata(decorator: string, target: string): void {
  const reflect = Reflect as unknown as { getMetadata?: unknown };
  if (typeof reflect.getMetadata === 'function') return;
  throw new DecoratorError({
    decorator,
    target,
    problem: 'the reflect-metadata polyfill is not loaded (Reflect.getMetadata is missing).',
    solutions: [
      "Add `import 'reflect-metadata';` as the very first import of your entry file (before any decorated class).",
      "In jest, add 'reflect-metadata' to `setupFiles`.",
    ],
  });
}
