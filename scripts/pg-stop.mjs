#!/usr/bin/env node
/**
 * `npm run pg:stop`: stops the throwaway PostgreSQL clusters that `npm run pg:start`
 * (scripts/pg-start.mjs) started, and deletes their folders. With PGPORT set, only the one on that
 * port. A PostgreSQL it did not start (the machine's own, say) is never touched.
 */
import { clusterRecords, stopCluster } from './pg-clusters.mjs';

const port = process.env.PGPORT ? Number(process.env.PGPORT) : undefined;
const records = clusterRecords().filter((record) => port === undefined || record.port === port);
if (records.length === 0) {
  console.log(
    `pg:stop: no throwaway PostgreSQL started by pg:start${port === undefined ? '' : ` on port ${port}`} is recorded.`,
  );
}
for (const record of records) {
  const stopped = stopCluster(record);
  console.log(
    `pg:stop: ${stopped ? 'stopped' : 'was not running:'} the PostgreSQL on 127.0.0.1:${record.port}; deleted ${record.dir}`,
  );
}
