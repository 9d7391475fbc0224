import type { MetadataStorage as TransformerMetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { lazyModule } from '../internal/lazy-module';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (import cost) */

/** class-validator, loaded when a class is first validated or turned into a schema. @internal */
export const classValidator = lazyModule(
  () => require('class-validator') as typeof import('class-validator'),
);

/** class-transformer, loaded when params are first turned into a class instance. @internal */
export const classTransformer = lazyModule(
  () => require('class-transformer') as typeof import('class-transformer'),
);

/**
 * class-transformer's decorator storage (`@Type`, `@Transform`, `@Expose`, `@Exclude`), which it
 * exposes only from this untyped deep path. @internal
 */
export const transformerStorage = lazyModule(
  () =>
    (
      require('class-transformer/cjs/storage') as {
        defaultMetadataStorage: TransformerMetadataStorage;
      }
    ).defaultMetadataStorage,
);
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The properties of `type` itself that carry a class-transformer decorator, read from the storage's
 * per-class maps (class-transformer has no public list). @internal
 */
export function ownTransformerProperties(type: object): string[] {
  const storage = transformerStorage() as unknown as Record<string, unknown>;
  const names = new Set<string>();
  for (const key of ['_typeMetadatas', '_transformMetadatas', '_exposeMetadatas']) {
    const byClass = storage[key];
    if (!(byClass instanceof Map)) continue;
    const byProperty: unknown = byClass.get(type);
    if (!(byProperty instanceof Map)) continue;
    for (const name of byProperty.keys()) if (typeof name === 'string') names.add(name);
  }
  return [...names];
}

/** The class-validator rules declared on `type` itself, in the order they were registered. @internal */
export function ownValidationMetadata(type: object): ValidationMetadata[] {
  return classValidator()
    .getMetadataStorage()
    .getTargetValidationMetadatas(type as new () => object, '', true, false)
    .filter((entry) => entry.target === type);
}
