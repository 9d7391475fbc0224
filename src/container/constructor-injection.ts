import { Container } from 'typedi';
import type { ServiceClass } from '../decorators/class-types';
import { DecoratorError } from '../errors/decorator.error';

/** Classes whose `design:paramtypes` ideact wrote (from their `@Inject` handlers), not the compiler. */
const completedByIdeact = new WeakSet<object>();

/** The constructor-parameter positions `type` has an `@Inject` for (typedi's own lookup: the class or its parent). */
function injectedPositions(type: object): Set<number> {
  const parent: unknown = Object.getPrototypeOf(type);
  const positions = new Set<number>();
  for (const handler of Container.handlers) {
    if (typeof handler.index !== 'number') continue;
    if (handler.object === type || handler.object === parent) positions.add(handler.index);
  }
  return positions;
}

/**
 * Lets typedi inject constructor parameters declared with `@Inject(() => Service)` / `@Inject(token)`
 * in programs compiled without decorator metadata (esbuild, tsx, SWC, Bun): typedi builds the
 * argument list from `design:paramtypes` and calls no `@Inject` handler when it is missing. For each
 * class with a constructor `@Inject` and no compiler metadata, ideact records a parameter list of
 * unknown types (one entry per parameter), so that typedi calls the handlers — and nothing else
 * changes. Idempotent; classes compiled with metadata are left as they are.
 * @internal
 */
export function completeInjectedConstructors(): void {
  const lengths = new Map<object, number>();
  for (const handler of Container.handlers) {
    if (typeof handler.index !== 'number' || typeof handler.object !== 'function') continue;
    lengths.set(handler.object, Math.max(lengths.get(handler.object) ?? 0, handler.index + 1));
  }
  for (const [type, maxIndex] of lengths) {
    if (Reflect.getOwnMetadata('design:paramtypes', type) !== undefined) continue;
    const length = Math.max((type as ServiceClass).length, maxIndex);
    Reflect.defineMetadata('design:paramtypes', new Array<undefined>(length).fill(undefined), type);
    completedByIdeact.add(type);
  }
}

/**
 * Checks that typedi can build the arguments of `type`'s constructor: each parameter is typed by the
 * compiler (`design:paramtypes`) or carries an `@Inject`. A parameter with neither would receive the
 * container or `undefined`: a DecoratorError naming the class and the position (counted from 1, with
 * the 0-based index typedi uses beside it).
 * @internal
 */
export function assertInjectableConstructor(type: ServiceClass): void {
  if (type.length === 0) return;
  const compiled =
    Reflect.getMetadata('design:paramtypes', type) !== undefined && !completedByIdeact.has(type);
  if (compiled) return;
  const injected = injectedPositions(type);
  for (let index = 0; index < type.length; index += 1) {
    if (injected.has(index)) continue;
    throw new DecoratorError({
      decorator: '@Service',
      target: type.name,
      problem: `constructor parameter ${index + 1} of ${type.length} (index ${index}) of ${type.name} has no injection token: it has no @Inject(…), and the program was compiled without decorator metadata (as esbuild, tsx, SWC and Bun compile), so typedi cannot tell what to inject there.`,
      solutions: [
        `Add @Inject(() => TheService) (from typedi, also exported by ideact) to constructor parameter ${index + 1} of ${type.name}: \`constructor(@Inject(() => WeatherApi) private readonly api: WeatherApi)\`; a typedi Token or a string id works too: @Inject(MY_TOKEN).`,
        `Or inject a property instead: \`@Inject(() => WeatherApi) api!: WeatherApi\`, with no constructor parameter.`,
        'Or compile with decorator metadata (tsc or ts-node with "emitDecoratorMetadata": true, SWC with jsc.transform.decoratorMetadata: true): then the parameter types are used.',
      ],
    });
  }
}
