#!/usr/bin/env node
/**
 * `npm run pg:start`: a throwaway local PostgreSQL for the PostgresRunStore's tests and for trying it
 * out, from the machine's own Postgres binaries (initdb, pg_ctl on PATH or in
 * /usr/lib/postgresql/<version>/bin): a new cluster in a temp folder (trust auth, listening on
 * 127.0.0.1 only, on PGPORT or a free port), a database `test`, and its URL printed. A cluster this
 * script started and that still runs is reused. initdb refuses to run as root: as root, the cluster
 * is made and run by an existing non-root user (IDEACT_PG_USER, default `postgres`), so no data is
 * root-owned. `npm run pg:stop` (scripts/pg-stop.mjs) stops it and deletes its folder.
 *
 * Usage: node scripts/pg-start.mjs [--json]   (--json: print one JSON line { url, port, dir, reused })
 * Environment: PGPORT (port), IDEACT_PG_USER (the user to run as when root), IDEACT_PG_DATABASE (test).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  clusterRecords,
  forgetCluster,
  recordCluster,
  stopCluster,
  withStartLock,
} from './pg-clusters.mjs';

const DATABASE = process.env.IDEACT_PG_DATABASE || 'test';
const SUPERUSER = 'postgres';

/** Thrown for a condition the user must fix; printed without a stack. */
class SetupError extends Error {}

/** The folder holding initdb, pg_ctl and postgres: PATH first, then /usr/lib/postgresql/<newest>/bin. */
function findBinaries() {
  const folders = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((name) => /^\d+(\.\d+)?$/.test(name))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  folders.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  for (const folder of folders) {
    const initdb = path.join(folder, 'initdb');
    if (!existsSync(initdb)) continue;
    // A symlink on PATH (/usr/local/bin/initdb) points into the folder that has the rest.
    const real = path.dirname(realpathSync(initdb));
    if (['pg_ctl', 'postgres'].every((name) => existsSync(path.join(real, name)))) return real;
  }
  throw new SetupError(
    'No PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH or in /usr/lib/postgresql/*/bin. ' +
      'Install the server (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql), ' +
      'or point IDEACT_TEST_DATABASE_URL at a PostgreSQL you already have.',
  );
}

/** As root: the non-root user that runs the cluster ({ name, uid, gid }); otherwise undefined. */
function clusterUser() {
  if (process.getuid?.() !== 0) return undefined;
  const name = process.env.IDEACT_PG_USER || 'postgres';
  const id = (flag) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const uid = id('-u');
  if (uid.status !== 0 || Number(uid.stdout) === 0) {
    throw new SetupError(
      `Running as root, and initdb refuses to run as root; the user "${name}" to run PostgreSQL as ` +
        `${uid.status === 0 ? 'is root' : 'does not exist'}. Create one (useradd --system postgres), ` +
        'set IDEACT_PG_USER to an existing non-root user, or run this script as a non-root user.',
    );
  }
  if (spawnSync('runuser', ['--help'], { stdio: 'ignore' }).error !== undefined) {
    throw new SetupError(
      'Running as root, but `runuser` (util-linux) is missing to drop to a non-root user.',
    );
  }
  return { name, uid: Number(uid.stdout), gid: Number(id('-g').stdout) };
}

/** Runs a Postgres binary (as `user` when set), failing with its output. */
function runBinary(user, binary, args) {
  const [command, commandArgs] =
    user === undefined ? [binary, args] : ['runuser', ['-u', user.name, '--', binary, ...args]];
  try {
    return execFileSync(command, commandArgs, { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new SetupError(`${path.basename(binary)} failed: ${output || error.message}`);
  }
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
function answers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** A port nothing listens on now (the kernel's pick). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Creates the database unless it exists (connecting to `postgres` as the superuser). */
async function ensureDatabase(port) {
  const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE "${DATABASE.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** A running cluster this script started earlier (on PGPORT, when given), or undefined. */
async function runningCluster(port) {
  for (const record of clusterRecords()) {
    if (port !== undefined && record.port !== port) continue;
    if (existsSync(record.dataDir) && (await answers(record.port))) return record;
    forgetCluster(record);
  }
  return undefined;
}

/** Starts (or reuses) the cluster; returns { url, port, dir, reused }. */
export async function startCluster() {
  const wanted = process.env.PGPORT ? Number(process.env.PGPORT) : undefined;
  return withStartLock(async () => {
    const existing = await runningCluster(wanted);
    if (existing !== undefined) return { ...existing, reused: true };
    if (wanted !== undefined && (await answers(wanted))) {
      throw new SetupError(
        `Something already listens on 127.0.0.1:${wanted} (PGPORT). If it is PostgreSQL, use it: ` +
          `IDEACT_TEST_DATABASE_URL=postgres://${SUPERUSER}@127.0.0.1:${wanted}/${DATABASE}; ` +
          'otherwise unset PGPORT (a free port is picked) or choose another.',
      );
    }
    const binaries = findBinaries();
    const user = clusterUser();
    const port = wanted ?? (await freePort());
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ideact-pg-'));
    if (user !== undefined) chownSync(dir, user.uid, user.gid);
    const dataDir = path.join(dir, 'data');
    const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/${DATABASE}`;
    const record = { url, port, dir, dataDir, user: user?.name, binaries };
    try {
      runBinary(user, path.join(binaries, 'initdb'), [
        ...['-D', dataDir, '-A', 'trust', '-U', SUPERUSER],
        ...['-E', 'UTF8', '--locale=C', '--no-sync'],
      ]);
      runBinary(user, path.join(binaries, 'pg_ctl'), [
        ...['-D', dataDir, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60'],
        ...['-o', `-c listen_addresses=127.0.0.1 -p ${port} -k '${dir}'`, 'start'],
      ]);
      recordCluster(record);
      await ensureDatabase(port);
    } catch (error) {
      stopCluster(record);
      throw error;
    }
    return { ...record, reused: false };
  });
}

async function main() {
  const json = process.argv.includes('--json');
  try {
    const cluster = await startCluster();
    if (json) {
      const { url, port, dir, reused } = cluster;
      process.stdout.write(`${JSON.stringify({ url, port, dir, reused })}\n`);
      return;
    }
    console.log(
      `${cluster.reused ? 'A throwaway PostgreSQL started earlier is running' : 'Started a throwaway PostgreSQL'} ` +
        `on 127.0.0.1:${cluster.port} (data in ${cluster.dir}${cluster.user ? `, run as ${cluster.user}` : ''}).\n` +
        `  Connection URL: ${cluster.url}\n` +
        `  For the tests:  export IDEACT_TEST_DATABASE_URL=${cluster.url}\n` +
        '  Stop it and delete its data: npm run pg:stop',
    );
  } catch (error) {
    const message = error instanceof SetupError ? error.message : (error?.stack ?? String(error));
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else console.error(`pg:start: ${message}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
