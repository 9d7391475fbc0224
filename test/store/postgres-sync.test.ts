import {
  ContainerConfigurationError,
  createAgent,
  PostgresRunStore,
  type PostgresRunStoreOptions,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { weatherTool } from '../agent/run-fixtures';
import {
  removeOwnCluster,
  startCluster,
  startOwnCluster,
  stopCluster,
  type OwnCluster,
} from '../support/own-postgres-cluster';

/**
 * When PostgresRunStore's commits reach the disk (issue 31 item 3), on a cluster of this file's own
 * that the tests restart and crash: with `sync: 'batch'` (the default) a committed step survives a
 * restart of PostgreSQL and a run that ended survives a crash of it; with `sync: 'commit'` every
 * committed step survives a crash.
 */
let cluster: OwnCluster | undefined;
const stores: PostgresRunStore[] = [];

beforeAll(async () => {
  cluster = await startOwnCluster();
}, 150_000);
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
  removeOwnCluster(cluster);
});

function openStore(options: PostgresRunStoreOptions = {}): PostgresRunStore {
  const store = new PostgresRunStore({
    connectionString: (cluster as OwnCluster).url,
    schema: 'sync_test',
    ...options,
  });
  stores.push(store);
  return store;
}

function weatherAgent(store: PostgresRunStore, turns: number) {
  let turn = 0;
  return createAgent({
    tools: [weatherTool],
    store,
    provider: new ScriptedProvider(() => {
      turn += 1;
      return turn <= turns
        ? { calls: [{ _tool: 'weather', city: `City${turn}` }], output: null }
        : { calls: [], output: `asked ${turns}` };
    }),
    activities: [{ weather: (params) => ({ city: params.city, sky: 'sun' }) }],
  });
}

/** The server goes down (`fast`: a clean shutdown; `immediate`: a crash) and comes back. */
async function downAndUp(mode: 'fast' | 'immediate', open: PostgresRunStore): Promise<void> {
  await open.close();
  stopCluster(cluster as OwnCluster, mode);
  startCluster(cluster as OwnCluster);
}

describe("PostgresRunStore's sync (issue 31 item 3)", () => {
  it("sync 'batch' (default): a run that ended survives a crash of PostgreSQL right after", async () => {
    const store = openStore();
    const result = await weatherAgent(store, 5).run({ task: 'Ask five cities.', maxTurns: 8 });
    expect(result.output).toBe('asked 5');
    await downAndUp('immediate', store);
    const stored = await openStore().load(result.runId);
    expect(stored?.state.nextStep).toMatchObject({
      module: 'done',
      args: { reason: 'output', output: 'asked 5' },
    });
    expect(stored?.state.nodes).toEqual(JSON.parse(JSON.stringify(result.state.nodes)));
  }, 60_000);

  it.each([
    ['batch', 'fast'],
    ['commit', 'immediate'],
  ] as const)(
    "sync '%s': every step committed survives PostgreSQL going down (%s) mid-run",
    async (sync, mode) => {
      const store = openStore({ sync });
      const run = weatherAgent(store, 5).start({ task: 'Ask five cities.', maxTurns: 8 });
      for (let step = 0; step < 7; step++) await run.step();
      const nodes = JSON.parse(JSON.stringify(run.state.nodes)) as unknown[];
      expect(nodes.length).toBeGreaterThan(3);
      await downAndUp(mode, store);
      const stored = await openStore({ sync }).load(run.id);
      expect(stored?.state.nodes).toEqual(nodes);
      expect(stored?.state.usage.steps).toBe(7);
    },
    60_000,
  );

  it('an unknown sync is a ContainerConfigurationError naming the setting and the choices', () => {
    const error = (() => {
      try {
        new PostgresRunStore({ sync: 'always' as never });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ContainerConfigurationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ setting: 'sync', api: 'new PostgresRunStore' });
    expect((error as Error).message).toContain("sync: 'commit'");
  });
});
