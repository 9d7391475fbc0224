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

/** How to make the compiler emit `design:*` metadata, one entry per toolchain. @internal */
export const DESIGN_METADATA_SOLUTIONS: readonly string[] = [
  'tsc, ts-node, ts-jest: set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of tsconfig.json.',
  'esbuild and tsx (and tools built on esbuild) do not emit decorator metadata: run the program with ts-node or compile it with tsc, use swc with `jsc.parser.decorators: true`, `jsc.transform.legacyDecorator: true` and `jsc.transform.decoratorMetadata: true`, or add an esbuild plugin that emits it (e.g. @anatine/esbuild-decorators).',
];

/**
 * The error for a class compiled without `emitDecoratorMetadata` (esbuild, tsx, swc without the
 * option): ideact would otherwise drop param types or inject `undefined` dependencies without a word.
 * @internal
 */
export function missingDesignMetadataError(
  decorator: string,
  target: string,
  detail: string,
): DecoratorError {
  return new DecoratorError({
    decorator,
    target,
    problem: `${detail} The program was compiled without decorator metadata (emitDecoratorMetadata), so ideact cannot tell the types.`,
    solutions: DESIGN_METADATA_SOLUTIONS,
  });
}
