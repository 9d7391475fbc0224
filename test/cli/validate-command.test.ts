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

  it("--module-root defaults to the Idea's folder in run, validate and codegen, from any working directory (issue 27 item 7)", async () => {
    const producer = path.join(MUSIC, 'producer.json');
    for (const cwd of [MUSIC, workDir]) {
      const result = await runCli(['validate', producer], { cwd });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('module composer.json resolves to composer.json');
    }
    // A given root wins: from the work dir, the module is looked up there.
    const rooted = await runCli(['validate', producer, '--module-root', workDir]);
    expect(rooted.code).toBe(1);
    expect(rooted.stderr).toContain('Module "composer.json" not found');

    const help = await Promise.all(
      ['run', 'validate', 'codegen'].map((command) => runCli([command, '--help'])),
    );
    const texts = help.map(({ stdout }) => stdout.replace(/\s+/g, ' '));
    const option =
      '--module-root <dir> directory `_module` / `_delegate` and @Module / @Delegate paths resolve in and may not leave';
    expect(texts[0]).toContain(`${option} (default: the Idea's folder)`);
    expect(texts[1]).toContain(`${option} (default: each Idea's folder)`);
    expect(texts[2]).toContain(
      `${option} (default: the folder of the Idea or of the directory given; for several, their common folder); give the same moduleRoot to createContainer`,
    );
  });

  it('lists every problem of an Idea, each with its JSON path, not only the first (issue 27 item 10)', async () => {
    const tool = (name: string, extra: Record<string, unknown>) => ({
      type: 'object',
      properties: { _tool: { const: name }, ...extra },
      required: ['_tool'],
    });
    const file = await write('many.json', {
      context: [
        { type: 'system', text: 'Hello.' },
        { type: 'banana', text: 'not a message type' },
      ],
      schema: {
        type: 'object',
        properties: {
          calls: {
            type: 'array',
            items: {
              anyOf: [
                tool('lookup', { _module: { const: 'missing.json' } }),
                tool('write', {
                  _imports: { const: ['input'] },
                  _scopes: { const: ['state'] },
                }),
              ],
            },
          },
          output: { $ref: '#/definitions/nothing' },
        },
        required: ['calls', 'output'],
      },
    });
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`invalid ${file}\n`);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      `ideact: Invalid Idea in ${file} at /context/1/type: unknown message type "banana" (expected system, text, data, input, state, result).`,
      `ideact: Invalid Idea in ${file} at /schema/properties/output/$ref: the $ref "#/definitions/nothing" points at nothing in this schema; add the definition it names or fix the $ref.`,
      expect.stringMatching(
        new RegExp(
          `^ideact: Invalid Idea in ${escape(file)} at /schema/properties/calls/items/anyOf/1/properties/_scopes: tool "write" writes both "_imports" .* and "_scopes" .*, which differ`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^ideact: ${escape(file)} at /schema/properties/calls/items/anyOf/0/properties/_module/const: Module "missing.json" not found`,
        ),
      ),
    ]);
  });

  it('lists every problem of an invalid module, in the module file (issue 27 item 10)', async () => {
    const agent = await write('agent.json', agentIdea('broken-module.json'));
    await write('broken-module.json', {
      context: [{ type: 'data', kind: 7 }],
      schema: 'not a schema',
    });
    const module = await fs.realpath(path.join(workDir, 'broken-module.json'));
    const result = await runCli(['validate', agent]);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `ideact: Invalid Idea in ${module} at /context/0/data: a "data" message needs "data".`,
      `ideact: Invalid Idea in ${module} at /context/0/kind: expected a string, got a number.`,
      `ideact: Invalid Idea in ${module} at /schema: expected a JSON Schema object, got a string.`,
    ]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
