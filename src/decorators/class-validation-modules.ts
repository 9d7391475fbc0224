import type { MetadataStorage as TransformerMetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { MissingPackageError } from '../errors/missing-package.error';
import { lazyModule } from '../internal/lazy-module';
import { rethrowMissing } from '../internal/optional-module';

/** The packages Tools declared as classes need (optional dependencies of ideact, issue 29). @internal */
export const CLASS_TOOL_PACKAGES = [
  'class-validator',
  'class-transformer',
  'class-validator-jsonschema',
] as const;

/** The error for a missing package of class-based Tools: it names all three, one `npm i`. */
function missingClassToolPackage(packageName: string): (cause: unknown) => Error {
  return (cause) =>
    new MissingPackageError({
      packageName,
      feature: 'Tools declared as classes (@Tool, @Output classes, codegen classes)',
      packages: CLASS_TOOL_PACKAGES,
      cause,
    });
}

// Each require sits in a `try` so that a bundler leaves it for run time when the package is missing.
/* eslint-disable @typescript-eslint/no-require-imports -- optional, loaded on first use */

/** class-validator, loaded when a class is first validated or turned into a schema. @internal */
export const classValidator = lazyModule(() => {
  try {
    return require('class-validator') as typeof import('class-validator');
  } catch (error) {
    return rethrowMissing(error, 'class-validator', missingClassToolPackage('class-validator'));
  }
});

/** class-transformer, loaded when params are first turned into a class instance. @internal */
export const classTransformer = lazyModule(() => {
  try {
    return require('class-transformer') as typeof import('class-transformer');
  } catch (error) {
    return rethrowMissing(error, 'class-transformer', missingClassToolPackage('class-transformer'));
  }
});

/**
 * class-transformer's decorator storage (`@Type`, `@Transform`, `@Expose`, `@Exclude`), which it
 * exposes only from this untyped deep path. @internal
 */
export const transformerStorage = lazyModule(() => {
  try {
    return (
      require('class-transformer/cjs/storage') as {
        defaultMetadataStorage: TransformerMetadataStorage;
      }
    ).defaultMetadataStorage;
  } catch (error) {
    return rethrowMissing(error, 'class-transformer', missingClassToolPackage('class-transformer'));
  }
});

/** class-validator-jsonschema, loaded when a class is first turned into a schema. @internal */
export const classValidatorJsonSchema = lazyModule(() => {
  try {
    return require('class-validator-jsonschema') as typeof import('class-validator-jsonschema');
  } catch (error) {
    return rethrowMissing(
      error,
      'class-validator-jsonschema',
      missingClassToolPackage('class-validator-jsonschema'),
    );
  }
});

/** The names of the rules class-validator-jsonschema converts by itself. @internal */
export const jsonSchemaConverterNames = lazyModule(() => {
  try {
    const { defaultConverters } = require('class-validator-jsonschema/build/defaultConverters') as {
      defaultConverters: Record<string, unknown>;
    };
    return new Set(Object.keys(defaultConverters));
  } catch (error) {
    return rethrowMissing(
      error,
      'class-validator-jsonschema',
      missingClassToolPackage('class-validator-jsonschema'),
    );
  }
});
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
