import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Agent,
  ContainerConfigurationError,
  Executor,
  InvalidAgentStateError,
  STATE_FILE_FORMAT,
  Toolkit,
  createAgent,
  loadState,
  saveStateFile,
  stateFileStoreDir,
  type AgentResult,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  makeRunModuleRoot,
  nestedScript,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
} from '../agent/run-fixtures';

/**
 * `stateFile` as a shorthand for a FileRunStore of one run (issue 18, R-LOOP-5): the file names the
 * run, the run lives in `<file>.run/` as an append-only journal, and state files of the older format
 * (the whole state as JSON) resume by being imported once. The fixtures in ./fixtures were written
 * by earlier versions' `agent.run({ task: 'Weather in Oslo and Rome?', stateFile })` with the scenario
 * below: `state-file-before-run-ids*.json` by 4a6ca99^ (no run ids yet; `-failed` stopped on
 * SCRIPT_EXHAUSTED with the Generator's rendered prompt pending), `state-file-before-run-stores.json`
 * by 3b70c46 (maxTurns 1).
 */
const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};
const FIRST_TURN = {
  calls: [
    { _tool: 'weather', city: 'Oslo' },
    { _tool: 'weather', city: 'Rome' },
  ],
  output: null,
};
const FINAL_TURN = { calls: [], output: 'Oslo 21 °C, Rome 21 °C' };
const TASK = 'Weather in Oslo and Rome?';
const FIXTURES = path.join(__dirname, 'fixtures');

function weatherAgent(script: unknown[]): Agent {
  return createAgent({
    tools: [weatherTool],
    activities: [{ weather: (params) => ({ city: params.city, tempC: 21 }) }],
    provider: new ScriptedProvider(script as never),
  });
}

let directory: string;
let emitWarning: jest.SpyInstance;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-state-file-'));
  emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(async () => {
  emitWarning.mockRestore();
  await fs.rm(directory, { recursive: true, force: true });
});

/** The notices of migrations so far (process warnings with code IDEACT_STATE_FILE_MIGRATED). */
function migrationWarnings(): string[] {
  return emitWarning.mock.calls
    .filter(
      ([, options]) =>
        (options as { code?: string } | undefined)?.code === 'IDEACT_STATE_FILE_MIGRATED',
    )
    .map(([message]) => String(message));
}

async function uninterrupted(): Promise<AgentResult> {
  return weatherAgent([FIRST_TURN, FINAL_TURN]).run({ task: TASK });
}

async function copyFixture(name: string): Promise<string> {
  const file = path.join(directory, 'runs', name);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.copyFile(path.join(FIXTURES, name), file);
  return file;
}

describe('stateFile: a FileRunStore of one run (issue 18)', () => {
  it('R-LOOP-5 a stateFile run is journaled in <file>.run/: the file is a pointer written once, the journal only grows by appends', async () => {
    const file = path.join(directory, 'run.json');
    const journals: Buffer[] = [];
    const pointers: Array<{ text: string; inode: number; mtimeMs: number }> = [];
    let journal: string | undefined;
    const run = weatherAgent([FIRST_TURN, FINAL_TURN]).start({ task: TASK, stateFile: file });
    // Step by step, looking at the files between steps.
    for (;;) {
      const next = await run.step();
      journal ??= path.join(stateFileStoreDir(file), run.id, 'journal.jsonl');
      const stat = await fs.stat(file);
      pointers.push({
        text: await fs.readFile(file, 'utf8'),
        inode: stat.ino,
        mtimeMs: stat.mtimeMs,
      });
      journals.push(await fs.readFile(journal));
      if (next.module === 'done') break;
    }
    const result = await run.result();
    expect(result.output).toBe(FINAL_TURN.output);

    // The file names the run; the run is a FileRunStore run folder.
    expect(JSON.parse(pointers[0]!.text)).toEqual({
      format: STATE_FILE_FORMAT,
      version: 1,
      store: 'run.json.run',
      runId: run.id,
    });
    expect((await fs.readdir(directory)).sort()).toEqual(['run.json', 'run.json.run']);
    expect((await fs.readdir(path.join(stateFileStoreDir(file), run.id))).sort()).toEqual([
      'checkpoint.json',
      'journal.jsonl',
      'run.json',
    ]);
    // Never rewritten: the same inode, time and text after every step.
    for (const pointer of pointers) expect(pointer).toEqual(pointers[0]);
    // Append-only: each step's journal starts with the previous one, and it grew.
    const written = journals;
    for (let index = 1; index < written.length; index++) {
      const before = written[index - 1]!;
      expect(written[index]!.subarray(0, before.length).equals(before)).toBe(true);
    }
    expect(written.at(-1)!.length).toBeGreaterThan(written[0]!.length);
    // The checkpoint is the initial one (no whole-state rewrite per step): it holds no node yet.
    const checkpoint = JSON.parse(
      await fs.readFile(path.join(stateFileStoreDir(file), run.id, 'checkpoint.json'), 'utf8'),
    ) as { journalOffset: number; state: { nodes: unknown[] } };
    expect(checkpoint.journalOffset).toBe(0);
    expect(checkpoint.state.nodes).toHaveLength(1); // the task
    expect((await loadState(file)).nodes.map((node) => node.message)).toEqual(
      result.state.nodes.map((node) => node.message),
    );
  });

  it('R-LOOP-5 a run stopped by maxTurns resumes by its stateFile in a new agent with the output of an uninterrupted run', async () => {
    const file = path.join(directory, 'trip.json');
    const stopped = await weatherAgent([FIRST_TURN]).run({
      task: TASK,
      maxTurns: 1,
      stateFile: file,
    });
    expect(stopped.stopReason).toBe('max_turns');

    const resumed = await weatherAgent([FINAL_TURN]).resume(file, { maxTurns: 2 });
    const reference = await uninterrupted();
    expect(resumed.stopReason).toBe('output');
    expect(resumed.runId).toBe(stopped.runId);
    expect(resumed.output).toBe(reference.output);
    expect(resumed.state.nodes.map((node) => node.message)).toEqual(
      reference.state.nodes.map((node) => node.message),
    );
    expect(migrationWarnings()).toEqual([]);
  });

  it('R-LOOP-5 a new run on the same stateFile replaces the run the file named (one run per file)', async () => {
    const file = path.join(directory, 'again.json');
    const first = await weatherAgent([FIRST_TURN, FINAL_TURN]).run({ task: TASK, stateFile: file });
    const second = await weatherAgent([FINAL_TURN]).run({ task: 'Again?', stateFile: file });
    expect(second.runId).not.toBe(first.runId);
    expect(await fs.readdir(stateFileStoreDir(file))).toEqual([second.runId]);
    expect((await loadState(file)).task).toBe('Again?');
  });

  it('a stateFile on an Agent built without state-file stores is a ContainerConfigurationError that says how to fix it', () => {
    const provider = new ScriptedProvider([FINAL_TURN]);
    const executor = new Executor({ provider, tools: [weatherTool] });
    const agent = new Agent({ provider, toolkit: new Toolkit({ tools: [weatherTool] }), executor });
    expect(() => agent.start({ task: TASK, stateFile: path.join(directory, 'x.json') })).toThrow(
      ContainerConfigurationError,
    );
    expect(() => agent.start({ task: TASK, stateFile: path.join(directory, 'x.json') })).toThrow(
      /stateFile.*createAgent.*StateFileStores/s,
    );
  });
});

describe('state files of the older format (the whole state) are migrated on resume', () => {
  it.each([
    ['state-file-before-run-ids.json', /^migrated-[0-9a-f]{24}$/],
    ['state-file-before-run-stores.json', /^run_1e09d3ab9f35$/],
  ])(
    'R-LOOP-5 %s resumes with the uninterrupted output, is imported once with a notice, and stays as it was',
    async (name, runIdPattern) => {
      const file = await copyFixture(name);
      const original = await fs.readFile(file);

      // A resume that stops at once (the limit is reached): the file is imported, nothing runs.
      const first = await weatherAgent([]).resume(file, { maxTurns: 1 });
      expect(first.stopReason).toBe('max_turns');
      expect(first.runId).toMatch(runIdPattern);
      const notices = migrationWarnings();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(file);
      expect(notices[0]).toContain(stateFileStoreDir(file));
      expect(notices[0]).toContain('left as it was');

      const resumed = await weatherAgent([FINAL_TURN]).resume(file, { maxTurns: 2 });
      const reference = await uninterrupted();
      expect(resumed.runId).toBe(first.runId);
      expect(resumed.output).toBe(reference.output);
      expect(resumed.state.nodes.map((node) => node.message)).toEqual(
        reference.state.nodes.map((node) => node.message),
      );
      // Imported once: no second notice; the user's file is byte for byte what it was.
      expect(migrationWarnings()).toHaveLength(1);
      expect((await fs.readFile(file)).equals(original)).toBe(true);
      // Later reads of the file see the run where it went on.
      expect((await loadState(file)).nextStep).toEqual({
        module: 'done',
        args: { reason: 'output', output: reference.output },
      });
      expect(await fs.readdir(stateFileStoreDir(file))).toEqual(
        expect.arrayContaining([first.runId, 'migrated-from.json']),
      );
    },
  );

  it('R-LOOP-5 an older file that stopped with the rendered prompt pending resumes; the store keeps no rendered prompt', async () => {
    const file = await copyFixture('state-file-before-run-ids-failed.json');
    const saved = JSON.parse(await fs.readFile(file, 'utf8')) as {
      nextStep: { args: { pending: { module: string } } };
    };
    expect(saved.nextStep.args.pending.module).toBe('generator');

    const resumed = await weatherAgent([FINAL_TURN]).resume(file);
    const reference = await uninterrupted();
    expect(resumed.output).toBe(reference.output);
    expect(resumed.state.nodes.map((node) => node.message)).toEqual(
      reference.state.nodes.map((node) => node.message),
    );
    const folder = path.join(stateFileStoreDir(file), resumed.runId);
    const stored =
      (await fs.readFile(path.join(folder, 'checkpoint.json'), 'utf8')) +
      (await fs.readFile(path.join(folder, 'journal.jsonl'), 'utf8'));
    // The older file kept the Generator's rendered messages; the store re-renders them instead.
    expect(JSON.stringify(saved)).toMatch(/"messages":\[\{"role"/);
    expect(stored).not.toMatch(/"messages":\[\{/);
  });

  it('R-LOOP-5 an older file edited after its import is imported again (the edit is what resumes)', async () => {
    const file = await copyFixture('state-file-before-run-stores.json');
    await weatherAgent([]).resume(file, { maxTurns: 1 });
    const edited = JSON.parse(await fs.readFile(file, 'utf8')) as { task: string };
    edited.task = 'Edited by hand';
    await fs.writeFile(file, JSON.stringify(edited, null, 2));
    expect((await loadState(file)).task).toBe('Edited by hand');
    const resumed = await weatherAgent([FINAL_TURN]).resume(file, { maxTurns: 2 });
    expect(resumed.state.task).toBe('Edited by hand');
    expect(migrationWarnings()).toHaveLength(2);
  });

  it('a torn older file (cut at any byte) is an InvalidAgentStateError naming the file and the JSON path where it breaks off', async () => {
    const file = await copyFixture('state-file-before-run-ids.json');
    const text = await fs.readFile(file, 'utf8');
    const cutInNode2 = text.indexOf('"city"', text.indexOf('"id": 2')) + 3;
    for (const length of [1, 10, 200, cutInNode2, text.length - 2]) {
      await fs.writeFile(file, text.slice(0, length));
      const error = (await weatherAgent([])
        .resume(file)
        .catch((thrown) => thrown)) as unknown;
      expect(error).toBeInstanceOf(InvalidAgentStateError);
      const typed = error as InvalidAgentStateError;
      expect(typed.file).toBe(file);
      expect(typed.message).toContain(file);
      expect(typed.message).toContain('torn or broken');
      if (length === cutInNode2) expect(typed.jsonPath).toBe('/nodes/2/message/call');
      expect(typed.message).toContain(`invalid at ${typed.jsonPath || '(root)'}`);
    }
    // Every shorter prefix of the file is refused the same way (and nothing is imported).
    for (let length = 0; length < text.length - 1; length++) {
      await fs.writeFile(file, text.slice(0, length));
      const error = (await loadState(file).catch((thrown) => thrown)) as InvalidAgentStateError;
      expect(error).toBeInstanceOf(InvalidAgentStateError);
      expect(error.file).toBe(file);
    }
    await expect(fs.readdir(stateFileStoreDir(file))).rejects.toThrow(/ENOENT/);
  });

  it('an older file with a wrong field, or a pointer to a missing run, is an InvalidAgentStateError with the JSON path', async () => {
    const file = await copyFixture('state-file-before-run-ids.json');
    const state = JSON.parse(await fs.readFile(file, 'utf8')) as { version: number };
    state.version = 7;
    await fs.writeFile(file, JSON.stringify(state));
    const wrong = (await weatherAgent([])
      .resume(file)
      .catch((thrown) => thrown)) as InvalidAgentStateError;
    expect(wrong).toBeInstanceOf(InvalidAgentStateError);
    expect([wrong.file, wrong.jsonPath]).toEqual([file, '/version']);

    const pointer = path.join(directory, 'gone.json');
    await weatherAgent([FINAL_TURN]).run({ task: TASK, stateFile: pointer });
    await fs.rm(stateFileStoreDir(pointer), { recursive: true });
    const missing = (await weatherAgent([])
      .resume(pointer)
      .catch((thrown) => thrown)) as InvalidAgentStateError;
    expect(missing).toBeInstanceOf(InvalidAgentStateError);
    expect([missing.file, missing.jsonPath]).toEqual([pointer, '/runId']);
    expect(missing.message).toContain(stateFileStoreDir(pointer));
  });
});

describe('saveStateFile (the CLI saves an interrupted run without --state with it)', () => {
  let moduleRoot: string;
  beforeAll(async () => {
    moduleRoot = await makeRunModuleRoot();
  });
  afterAll(async () => {
    await removeRunModuleRoot(moduleRoot);
  });

  it('R-LOOP-5 stores a whole state with a nested agent as a one-run store; saving it again replaces it', async () => {
    const agent = createAgent({
      tools: [summarizeTool, plannerTool],
      activities: [sunny],
      provider: new ScriptedProvider(nestedScript),
      moduleRoot,
    });
    const result = await agent.run({ task: 'Summarize and plan' });
    const file = path.join(directory, 'saved.json');
    for (let time = 0; time < 2; time++) {
      expect(await saveStateFile(file, result.state)).toBe(result.runId);
      const loaded = await loadState(file);
      expect(loaded.nodes.map((node) => node.message)).toEqual(
        result.state.nodes.map((node) => node.message),
      );
      const nested = (state: typeof loaded) =>
        state.nodes.flatMap((node) => node.metadata.nested ?? []).map((child) => child.nextStep);
      expect(nested(loaded)).toEqual(nested(result.state));
      expect(nested(loaded)).toHaveLength(1);
    }
    // One top-level run plus its nested run, nothing left of the first save.
    expect((await fs.readdir(stateFileStoreDir(file))).length).toBe(2);
  });
});
