import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  OfflineProvider,
  createAgent,
  loadState,
  saveState,
  stateFileStoreDir,
  validateJson,
  type Idea,
} from 'ideact';
import { REPO_ROOT, runCli } from './run-cli';

/**
 * `ideact run --resume FILE` with a state file of the older format (the whole state as JSON, what
 * `saveState` writes and what `--state` wrote before issue 18): the run continues, the file is
 * imported into `FILE.run/` once with a notice, and the file stays as it was.
 */
const LYRICIST = path.join(REPO_ROOT, 'test', 'codegen', 'fixtures', 'lyricist.idea.json');

let workDir: string;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-old-state-'));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

it('R-LOOP-5 --resume of an older whole-state file continues the run, imports it once with a notice, leaves the file as it was', async () => {
  const idea = JSON.parse(await fs.readFile(LYRICIST, 'utf8')) as Idea;
  // A run cut after its Prompter step: the Generator's rendered prompt is pending (as a kill left it).
  const run = createAgent({ tools: [], provider: new OfflineProvider() }).start({
    context: idea.context,
    output: idea.schema,
  });
  expect((await run.step()).module).toBe('generator');
  const file = path.join(workDir, 'lyricist.json');
  await saveState(file, run.state);
  const original = await fs.readFile(file);

  const resumed = await runCli(['run', LYRICIST, '--provider', 'offline', '--resume', file], {
    cwd: workDir,
  });
  expect(resumed.code).toBe(0);
  expect(validateJson(idea.schema, JSON.parse(resumed.stdout))).toEqual([]);
  expect(resumed.stderr).toContain('IDEACT_STATE_FILE_MIGRATED');
  expect(resumed.stderr).toContain(`"${file}" is a state file of the older format`);
  expect(resumed.stderr).toContain('stopped: output after 1 turn(s)');
  expect((await fs.readFile(file)).equals(original)).toBe(true);
  const stored = await loadState(file);
  expect(stored.runId).toBe(run.id);
  expect(stored.nextStep).toMatchObject({ module: 'done', args: { reason: 'output' } });
  expect(await fs.readdir(stateFileStoreDir(file))).toEqual(
    expect.arrayContaining([run.id, 'migrated-from.json']),
  );

  // Again: the imported run is found (it already ended), no second import.
  const again = await runCli(['run', LYRICIST, '--provider', 'offline', '--resume', file], {
    cwd: workDir,
  });
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout)).toEqual(JSON.parse(resumed.stdout));
  expect(again.stderr).not.toContain('IDEACT_STATE_FILE_MIGRATED');
  expect((await fs.readFile(file)).equals(original)).toBe(true);
}, 30_000);
