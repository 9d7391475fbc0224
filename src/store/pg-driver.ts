import { MissingPackageError } from '../errors/missing-package.error';
import { lazyModule } from '../internal/lazy-module';
import { rethrowMissing } from '../internal/optional-module';

/* eslint-disable @typescript-eslint/no-require-imports -- optional, loaded on first use */

/**
 * The `pg` driver (an optional dependency, issue 29), loaded with the first PostgresRunStore or
 * worker and never by `require('ideact')`; `MissingPackageError` names it when it is not installed.
 * @internal
 */
export const pgDriver = lazyModule(() => {
  try {
    return require('pg') as typeof import('pg');
  } catch (error) {
    return rethrowMissing(
      error,
      'pg',
      (cause) =>
        new MissingPackageError({
          packageName: 'pg',
          feature: 'PostgresRunStore (and the workers, which keep runs in PostgreSQL)',
          cause,
        }),
    );
  }
});
