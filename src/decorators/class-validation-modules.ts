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
