/**
 * Issue 18 benchmark: what persistence costs. One scripted run of N turns (one Call per turn, then the
 * answer) in memory, with a `stateFile` (since issue 18 a FileRunStore of one run in `<file>.run/`; it
 * was an atomic whole-file rewrite after every step and Call),
 * with a FileRunStore (journal; default `sync: 'batch'` group commit, and `sync: 'append'`, one fsync
 * per append), and with a PostgresRunStore when a database answers. Also the store's size on disk per
 * turn count (it must grow linearly with the turns).
 *
 *   npm run build && node bench/ideact-persistence.mjs          (TURNS=400, BENCH_RUNS=5)
 *   IDEACT_TEST_DATABASE_URL=postgres://… for the PostgreSQL row (default postgres://postgres@127.0.0.1:5432/test)
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadIdeact, ROOT } from './lib/ideact-package.mjs';
import { formatNumber, median } from './lib/stats.mjs';

const ideact = loadIdeact();
if (ideact.loadError) {
  console.error(ideact.loadError);
  process.exit(1);
}
const require = createRequire(import.meta.url);
const { ScriptedProvider } = require(path.join(ROOT, 'dist', 'testing', 'index.js'));
const { Agent, Executor, Toolkit, FileRunStore, PostgresRunStore, StateFileStores } = ideact;
const TURNS = Number(process.env.TURNS ?? 400);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DATABASE_URL =
  process.env.IDEACT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const tool = {
  type: 'object',
  properties: { _tool: { const: 'note' }, n: { type: 'number' } },
  required: ['_tool', 'n'],
};

function agentFor(turns, config = {}) {
  let turn = 0;
  const provider = new ScriptedProvider(() => {
    turn += 1;
    return turn <= turns
      ? { calls: [{ _tool: 'note', n: turn }], output: null }
      : { calls: [], output: `noted ${turns}` };
  });
  const executor = new Executor({
    provider,
    tools: [tool],
    activities: [{ note: (params) => ({ noted: params.n }) }],
  });
  // stateFiles: what createAgent provides, so `stateFile` runs are one-run FileRunStores.
  return new Agent(
    {
      provider,
      toolkit: new Toolkit({ tools: [tool] }),
      executor,
      stateFiles: new StateFileStores(),
    },
    config,
  );
}

function sizeOf(target) {
  const info = statSync(target);
  if (!info.isDirectory()) return info.size;
  return readdirSync(target).reduce((sum, entry) => sum + sizeOf(path.join(target, entry)), 0);
}

async function timed(turns, variant) {
  const directory = mkdtempSync(path.join(tmpdir(), 'ideact-persist-'));
  try {
    const { config, options, close } = await variant.setup(directory);
    const agent = agentFor(turns, config);
    const started = performance.now();
    const result = await agent.run({ task: 'Note the numbers.', maxTurns: turns + 2, ...options });
    const ms = performance.now() - started;
    if (result.output !== `noted ${turns}`)
      throw new Error(`${variant.label}: ${result.stopReason}`);
    await close?.();
    // The floor row: what the run's own statements cost on their own (see postgresVariants).
    if (variant.replay !== undefined) return { ms: await variant.replay() };
    return { ms, bytes: variant.measuresSize ? sizeOf(directory) : undefined };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const variants = [
  { label: 'in memory', setup: async () => ({ config: {}, options: {} }) },
  {
    label: 'stateFile (one-run FileRunStore)',
    measuresSize: true,
    setup: async (directory) => ({
      config: {},
      options: { stateFile: path.join(directory, 'state.json') },
    }),
  },
  {
    label: "FileRunStore (sync 'batch', default)",
    measuresSize: true,
    setup: async (directory) => {
      const store = new FileRunStore({ dir: directory });
      return { config: { store }, options: {}, close: () => store.close() };
    },
  },
  {
    label: "FileRunStore (sync 'append')",
    measuresSize: true,
    setup: async (directory) => {
      const store = new FileRunStore({ dir: directory, sync: 'append' });
      return { config: { store }, options: {}, close: () => store.close() };
    },
  },
];

/** PostgresRunStore rows, one per `sync` mode (issue 31), when a database answers. */
async function postgresVariants() {
  const schema = `bench_${process.pid}`;
  const probe = new PostgresRunStore({ connectionString: DATABASE_URL, schema });
  try {
    await probe.list({ limit: 1 });
  } catch (error) {
    await probe.close().catch(() => undefined);
    return { unavailable: String(error.message).split('\n')[0] };
  }
  const commit = new PostgresRunStore({ connectionString: DATABASE_URL, schema, sync: 'commit' });
  const floor = await statementFloor(schema);
  return {
    schema,
    stores: [probe, commit, floor],
    variants: [
      {
        label: "PostgresRunStore (sync 'batch', default)",
        setup: async () => ({ config: { store: probe }, options: {} }),
      },
      {
        label: "PostgresRunStore (sync 'commit')",
        setup: async () => ({ config: { store: commit }, options: {} }),
      },
      {
        label: 'floor: its statements, raw pg',
        setup: async () => ({ config: { store: floor.store }, options: {} }),
        replay: () => floor.replay(),
      },
    ],
  };
}

/**
 * The floor under PostgresRunStore's row (issue 31 item 3): a run on a `'batch'` store whose pool
 * records the journal appends it sends (one statement each), then `replay()` times the same
 * statements sent one after another on one raw `pg` Client with the same `synchronous_commit = off`:
 * the database's and the driver's round trips alone, without ideact's work or its compactions.
 */
async function statementFloor(schema) {
  const { Client, Pool } = require('pg');
  const options = '-c synchronous_commit=off';
  const pool = new Pool({ connectionString: DATABASE_URL, options });
  let recorded = [];
  const recording = {
    query: (...parameters) => pool.query(...parameters),
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      return {
        query(config, values) {
          if (typeof config === 'object' && /^WITH run AS/.test(config.text.trim())) {
            recorded.push({ name: config.name, text: config.text, values: [...config.values] });
          }
          return client.query(config, values);
        },
        release: (error) => client.release(error),
      };
    },
  };
  const store = new PostgresRunStore({ pool: recording, schema });
  return {
    store: {
      // The run's statements only: recording starts with its first append.
      create: (...parameters) => ((recorded = []), store.create(...parameters)),
      append: (...parameters) => store.append(...parameters),
      load: (...parameters) => store.load(...parameters),
      list: (...parameters) => store.list(...parameters),
      delete: (...parameters) => store.delete(...parameters),
      flush: () => store.flush(),
    },
    async replay() {
      const statements = recorded;
      const client = new Client({ connectionString: DATABASE_URL, options });
      await client.connect();
      try {
        const started = performance.now();
        for (const statement of statements) await client.query(statement);
        return performance.now() - started;
      } finally {
        await client.end();
      }
    },
    close: () => store.close().then(() => pool.end()),
  };
}

/** Drops the bench's schema, so runs of the bench leave nothing behind in the database. */
async function dropSchema(schema) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

const postgres = await postgresVariants();
const all = postgres.unavailable ? variants : [...variants, ...postgres.variants];
for (const variant of all) await timed(TURNS, variant); // warm-up, a whole run each
// Rounds interleave the variants, so the machine's drift and the JIT's warmth fall on all alike.
const samples = all.map(() => []);
const sizes = [];
for (let round = 0; round < RUNS; round++) {
  for (const [index, variant] of all.entries()) {
    const sample = await timed(TURNS, variant);
    samples[index].push(sample.ms);
    sizes[index] = sample.bytes;
  }
}
const rows = all.map((variant, index) => ({
  label: variant.label,
  ms: median(samples[index]),
  bytes: sizes[index],
}));
if (postgres.stores) {
  for (const store of postgres.stores) await store.close();
  await dropSchema(postgres.schema);
}

const memory = rows[0].ms;
console.log(
  `${TURNS} turns (one Call each), median of ${RUNS} interleaved rounds, Node ${process.version}`,
);
for (const row of rows) {
  console.log(
    `${row.label.padEnd(36)} ${formatNumber(row.ms).padStart(7)} ms  ${formatNumber(row.ms / memory).padStart(6)} × in memory` +
      (row.bytes === undefined ? '' : `  ${formatNumber(row.bytes / 1024)} KiB on disk`),
  );
}
if (postgres.unavailable) console.log(`PostgresRunStore: n/a (${postgres.unavailable})`);

// Linear growth: the journal's size per turn at 100, 200 and 400 turns.
const growth = [];
for (const turns of [100, 200, 400]) {
  const { bytes } = await timed(turns, variants[2]);
  growth.push(
    `${turns} turns: ${formatNumber(bytes / 1024)} KiB (${formatNumber(bytes / turns)} B/turn)`,
  );
}
console.log(`FileRunStore size: ${growth.join('; ')}`);
