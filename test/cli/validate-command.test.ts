import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, runCli } from './run-cli';

/** `ideact validate` end to end through the built CLI (issue 7, R-MOD-5, R-MOD-6). */
const MUSIC = path.join(REPO_ROOT, 'examples', 'music', 'ideas');

let workDir: string;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-validate-'));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** A vessel Idea whose one Tool delegates to `module`. */
function agentIdea(module: string): unknown {
  return {
    context: [
      {
        type: 'input',
        input: { topic: 'x' },
        schema: { type: 'object', properties: { topic: { type: 'string' } } },
      },
    ],
    schema: {
      type: 'object',
      properties: {
        calls: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: { _tool: { const: 'next' }, _module: { const: module } },
                required: ['_tool'],
              },
            ],
          },
        },
        output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['calls', 'output'],
    },
  };
}

async function write(name: string, value: unknown): Promise<string> {
  const file = path.join(workDir, name);
  await fs.writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

describe('ideact validate', () => {
  it('accepts the music example (modules resolve inside the root) and says whether input is present', async () => {
    const result = await runCli([
      'validate',
      ...['producer', 'composer', 'sound-designer'].map((name) => path.join(MUSIC, `${name}.json`)),
      '--module-root',
      MUSIC,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ok      ');
    expect(result.stdout).toContain('input message present');
    expect(result.stdout).toContain('module composer.json resolves to composer.json');
    expect(result.stderr).toBe('');
  });

  it('reports an Idea without input message as valid but not taking params', async () => {
    const file = await write('plain.json', {
      context: [{ type: 'system', text: 'Say hi.' }],
      schema: { type: 'string' },
    });
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no input message (the Idea takes no params)');
  });

  it('a module cycle exits 1 naming the file, the JSON path and the chain', async () => {
    const first = await write('a.json', agentIdea('b.json'));
    await write('b.json', agentIdea('a.json'));
    const result = await runCli(['validate', first, '--module-root', workDir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`invalid ${first}`);
    expect(result.stderr).toContain(
      '/schema/properties/calls/items/anyOf/0/properties/_module/const',
    );
    expect(result.stderr).toContain('module cycle: a.json → b.json → a.json');
  });

  it('a module outside the root and a missing module are errors at their JSON paths', async () => {
    const escape = await write('escape.json', agentIdea('../outside.json'));
    const missing = await write('missing.json', agentIdea('nowhere.json'));
    const result = await runCli(['validate', escape, missing, '--module-root', workDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Module "\.\.\/outside\.json" is not allowed: .*outside the module root/,
    );
    expect(result.stderr).toContain(
      `${missing} at /schema/properties/calls/items/anyOf/0/properties/_module/const: Module "nowhere.json" not found`,
    );
  });

  it('schema errors, input data and solutions that do not match are reported with JSON paths', async () => {
    const file = await write('bad.json', {
      context: [
        {
          type: 'input',
          input: { count: 'three' },
          schema: { type: 'object', properties: { count: { type: 'integer' } } },
        },
      ],
      schema: { type: 'object', properties: { n: { type: 'strin' } } },
    });
    const wrongSolution = await write('wrong-solution.json', {
      context: [],
      schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      solution: { n: 'x' },
    });
    const result = await runCli(['validate', file, wrongSolution]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file} at /schema: Invalid JSON Schema`);
    expect(result.stderr).toContain(
      `${file} at /context/0: the input data does not match the input schema`,
    );
    expect(result.stderr).toContain('/count: must be integer');
    expect(result.stderr).toContain(
      `${wrongSolution} at /solution: the solution does not match the schema`,
    );
  });

  it('a structurally invalid Idea names the file and the JSON path', async () => {
    const file = await write('no-schema.json', { context: [] });
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Invalid Idea in ${file} at /schema`);
  });

  it('a missing file and invalid JSON exit 2 and name the file', async () => {
    const broken = await write('broken.json', '{ "context": ');
    const missing = path.join(workDir, 'nope.json');
    const result = await runCli(['validate', broken, missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `ideact: Invalid Idea in ${broken} at (root): the file is not valid JSON`,
    );
    expect(result.stderr).toContain(`ideact: Idea file not found: ${missing}`);
  });

  it('--module-root defaults to the current directory, as in run and codegen and moduleRoot in code (issue 14 item 11)', async () => {
    const producer = path.join(MUSIC, 'producer.json');
    const fromMusic = await runCli(['validate', producer], { cwd: MUSIC });
    expect(fromMusic.code).toBe(0);
    expect(fromMusic.stdout).toContain('module composer.json resolves to composer.json');

    // From elsewhere, the Idea's own directory is not the root: its module is looked up in the cwd.
    const fromWorkDir = await runCli(['validate', producer], { cwd: workDir });
    expect(fromWorkDir.code).toBe(1);
    expect(fromWorkDir.stderr).toContain('Module "composer.json" not found');

    const help = await Promise.all(
      ['run', 'validate', 'codegen'].map((command) => runCli([command, '--help'])),
    );
    for (const { stdout } of help) {
      expect(stdout.replace(/\s+/g, ' ')).toContain(
        '--module-root <dir> directory `_module` / `_delegate` and @Module / @Delegate paths resolve in and may not leave (default: the current directory)',
      );
    }
  });
});
