import { MissingPackageError } from '../errors/missing-package.error';
import { lazyModule } from '../internal/lazy-module';
import { rethrowMissing } from '../internal/optional-module';

/**
 * The DBOS Transact SDK (`@dbos-inc/dbos-sdk`), the durable-execution engine under workers, loaded
 * with the first worker or run queue and never by `require('ideact')` (it opens database pools and
 * registers process-wide state, and costs ~150 ms to load).
 * @internal
 */
export type DbosSdk = typeof import('@dbos-inc/dbos-sdk');

/** The SDK (an optional dependency, issue 29), required on first use. @internal */
export const dbosSdk = lazyModule(() => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional, loaded on first use
    return require('@dbos-inc/dbos-sdk') as DbosSdk;
  } catch (error) {
    return rethrowMissing(
      error,
      '@dbos-inc/dbos-sdk',
      (cause) =>
        new MissingPackageError({
          packageName: '@dbos-inc/dbos-sdk',
          feature:
            'Workers (startWorker, RunQueue, enqueueRun, ideact worker, ideact runs … --database-url)',
          packages: ['@dbos-inc/dbos-sdk', 'pg'],
          cause,
        }),
    );
  }
});
