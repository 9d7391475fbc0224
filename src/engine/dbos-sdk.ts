import { lazyModule } from '../internal/lazy-module';

/**
 * The DBOS Transact SDK (`@dbos-inc/dbos-sdk`), the durable-execution engine under workers, loaded
 * with the first worker or run queue and never by `require('ideact')` (it opens database pools and
 * registers process-wide state, and costs ~150 ms to load).
 * @internal
 */
export type DbosSdk = typeof import('@dbos-inc/dbos-sdk');

/** The SDK, required on first use. @internal */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (import cost)
export const dbosSdk = lazyModule(() => require('@dbos-inc/dbos-sdk') as DbosSdk);
