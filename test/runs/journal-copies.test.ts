import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createAgent,
  FileRunStore,
  PostgresRunStore,
  type RunStore,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { databaseForThisFile } from '../support/test-database';

/**
 * The journal's commits are copies of the state as JSON stores it (issue 31 item 3: taken without
 * `structuredClone`): an Activity's output with a `Date` is journaled as its ISO text, an own
 * `__proto__` key stays a data key, and the run a store loads equals the finished run as JSON, in
 * files and in PostgreSQL alike, across checkpoints.
 */
const database = databaseForThisFile();
let directory: string;
const opened: RunStore[] = [];

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-journal-copies-'));
});
afterAll(async () => {
  for (const store of opened) await store.close?.();
  await fs.rm(directory, { recursive: true, force: true });
});

const stampTool: ToolSchema = {
  type: 'object',
  description: 'Stamps a label with a time.',
  properties: { _tool: { const: 'stamp' }, label: { type: 'string' } },
  required: ['_tool', 'label'],
};

const stores: Array<[string, () => RunStore]> = [
  ['FileRunStore', () => new FileRunStore({ dir: directory, checkpointEvery: 2 })],
  [
    'PostgresRunStore',
    () =>
      new PostgresRunStore({
        connectionString: database.url,
        schema: database.schema,
        checkpointEvery: 2,
      }),
  ],
];

describe.each(stores)('%s', (_name, makeStore) => {
  it('journals an output with a Date and a __proto__ key as JSON would, and loads the run equal to its final state as JSON', async () => {
    const store = makeStore();
    opened.push(store);
    const labels = ['a', 'b', 'c', 'd'];
    const agent = createAgent({
      tools: [stampTool],
      activities: [
        {
          stamp: (params) => ({
            label: params.label,
            at: new Date(Date.UTC(2026, 10, 27, 12, 0, labels.indexOf(String(params.label)))),
            // A key JSON.parse makes an own data property, as a model's or a service's reply may hold.
            meta: JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
          }),
        },
      ],
      provider: new ScriptedProvider([
        ...labels.map((label) => ({ calls: [{ _tool: 'stamp', label }], output: null })),
        { calls: [], output: 'stamped' },
      ]),
      store,
    });
    const result = await agent.run({ task: 'Stamp a, b, c and d.' });
    expect(result.output).toBe('stamped');

    // A new store object reads what the first one wrote (a restarted process).
    const reader = makeStore();
    opened.push(reader);
    const loaded = await reader.load(result.runId);
    expect(loaded?.status).toBe('completed');
    expect(loaded?.state).toEqual(JSON.parse(JSON.stringify(result.state)));
    const outputs = (loaded?.state.nodes ?? []).flatMap((node) =>
      node.message.type === 'result' ? [node.message.output as Record<string, unknown>] : [],
    );
    expect(outputs.map((output) => output.at)).toEqual([
      '2026-11-27T12:00:00.000Z',
      '2026-11-27T12:00:01.000Z',
      '2026-11-27T12:00:02.000Z',
      '2026-11-27T12:00:03.000Z',
    ]);
    for (const output of outputs) {
      const meta = output.meta as Record<string, unknown>;
      expect(Object.prototype.hasOwnProperty.call(meta, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});
