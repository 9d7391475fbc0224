import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

/**
 * A PostgreSQL cluster of one test file's own, started by scripts/pg-start.mjs (the code of
 * `npm run pg:start`) on a port of its own, for tests that restart or crash the server: no other
 * test's database goes down with it.
 */
export interface OwnCluster {
  url: string;
  port: number;
  dir: string;
  dataDir: string;
  user?: string;
  binaries: string;
}

const ROOT = path.resolve(__dirname, '..', '..');

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a new cluster on a free port; its record. */
export async function startOwnCluster(): Promise<OwnCluster> {
  const port = await freePort();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'scripts', 'pg-start.mjs'), '--json'],
    { cwd: ROOT, env: { ...process.env, PGPORT: String(port) }, timeout: 120_000 },
  );
  const reply = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { port?: number };
  return JSON.parse(
    readFileSync(path.join(tmpdir(), 'ideact-pg-clusters', `${reply.port ?? port}.json`), 'utf8'),
  ) as OwnCluster;
}

/** Runs pg_ctl on the cluster (as its user when the tests run as root). */
export function pgCtl(cluster: OwnCluster, args: string[]): void {
  const binary = path.join(cluster.binaries, 'pg_ctl');
  const [command, commandArgs] =
    cluster.user === undefined
      ? [binary, args]
      : ['runuser', ['-u', cluster.user, '--', binary, ...args]];
  execFileSync(command, commandArgs, { stdio: 'ignore', timeout: 60_000 });
}

/**
 * Stops the server: `fast` shuts down cleanly (what a restart does), `immediate` is a crash (no
 * shutdown checkpoint: what was not flushed to the write-ahead log's file is gone).
 */
export function stopCluster(cluster: OwnCluster, mode: 'fast' | 'immediate'): void {
  pgCtl(cluster, ['-D', cluster.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
}

/** Starts the stopped server again and waits until it answers. */
export function startCluster(cluster: OwnCluster): void {
  pgCtl(cluster, [
    ...['-D', cluster.dataDir, '-l', path.join(cluster.dir, 'postgres.log'), '-w', '-t', '60'],
    ...['-o', `-c listen_addresses=127.0.0.1 -p ${cluster.port} -k '${cluster.dir}'`, 'start'],
  ]);
}

/** Stops the cluster (if it runs) and removes its files and record. */
export function removeOwnCluster(cluster: OwnCluster | undefined): void {
  if (cluster === undefined) return;
  try {
    stopCluster(cluster, 'immediate');
  } catch {
    // already stopped
  }
  rmSync(cluster.dir, { recursive: true, force: true });
  rmSync(path.join(tmpdir(), 'ideact-pg-clusters', `${cluster.port}.json`), { force: true });
}
