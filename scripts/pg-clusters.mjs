/**
 * The throwaway PostgreSQL clusters that scripts/pg-start.mjs started, shared with pg-stop.mjs: one
 * JSON record per cluster in <tmp>/ideact-pg-clusters/<port>.json ({ url, port, dir, dataDir, user,
 * binaries }), a lock so that test files starting at once start one cluster, and how to stop one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const RECORDS = path.join(os.tmpdir(), 'ideact-pg-clusters');
const LOCK = path.join(RECORDS, 'start.lock');
/** A lock older than this was left by a killed process. */
const STALE_LOCK_MS = 120_000;

/** Every recorded cluster (running or not). */
export function clusterRecords() {
  let names = [];
  try {
    names = readdirSync(RECORDS).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      return [JSON.parse(readFileSync(path.join(RECORDS, name), 'utf8'))];
    } catch {
      return [];
    }
  });
}

/** Records a started cluster. */
export function recordCluster(record) {
  mkdirSync(RECORDS, { recursive: true });
  writeFileSync(path.join(RECORDS, `${record.port}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

/** Forgets a cluster's record (its folder is left alone). */
export function forgetCluster(record) {
  rmSync(path.join(RECORDS, `${record.port}.json`), { force: true });
}

/** Stops a cluster (fast shutdown), deletes its folder and forgets it; quiet when it is gone already. */
export function stopCluster(record) {
  const pgCtl = path.join(record.binaries, 'pg_ctl');
  const args = ['-D', record.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'];
  const [command, commandArgs] =
    record.user === undefined
      ? [pgCtl, args]
      : ['runuser', ['-u', record.user, '--', pgCtl, ...args]];
  const stopped = spawnSync(command, commandArgs, { encoding: 'utf8' });
  rmSync(record.dir, { recursive: true, force: true });
  forgetCluster(record);
  return stopped.status === 0;
}

/** Runs `work` while holding the start lock (a folder: mkdir is atomic), waiting up to a minute. */
export async function withStartLock(work) {
  mkdirSync(RECORDS, { recursive: true });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = Date.now() - statSync(LOCK).mtimeMs;
      } catch {
        continue;
      }
      if (age > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`pg:start: ${LOCK} is held; remove it if no pg:start runs`);
      else await delay(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
