import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunEvent } from 'ideact';
import { startChatCompletionsServer } from '../support/chat-completions-server';
import { runCli } from './run-cli';

/**
 * Issue 27 item 7: `_module` / `_delegate` references in an Idea named on the command line resolve
 * relative to that Idea's folder by default (like a relative import or a JSON Schema `$ref`), from
 * whatever folder the command runs in; `--module-root` still overrides (R-MOD-6: never outside it).
 */
let workDir: string;
/** The folder the commands run in: a sibling of `other/`, so the Ideas are not under it. */
let cwd: string;
let folder: string;

/** An agent Idea whose one Tool delegates to its sibling `./helper.json`. */
const AGENT = {
  context: [{ type: 'system', text: 'Use the helper.' }],
  schema: {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              description: 'Asks the helper module.',
              properties: {
                _tool: { const: 'helper' },
                _module: { const: './helper.json' },
                word: { type: 'string' },
              },
              required: ['_tool', 'word'],
            },
          ],
        },
      },
      output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['calls', 'output'],
  },
};

/** The module: echoes a word. */
const HELPER = {
  context: [
    { type: 'system', text: 'Echo the word.' },
    {
      type: 'input',
      input: { word: 'x' },
      schema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    },
  ],
  schema: { type: 'object', properties: { echo: { type: 'string' } }, required: ['echo'] },
};

beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-idea-folder-'));
  folder = path.join(workDir, 'other', 'folder');
  cwd = path.join(workDir, 'elsewhere');
  await fs.mkdir(folder, { recursive: true });
  await fs.mkdir(cwd);
  await fs.writeFile(path.join(folder, 'x.json'), JSON.stringify(AGENT, null, 2));
  await fs.writeFile(path.join(folder, 'helper.json'), JSON.stringify(HELPER, null, 2));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** `../other/folder/x.json` as written on a command line run from `cwd`. */
const ideaArgument = (): string => path.join('..', 'other', 'folder', 'x.json');

describe('module references resolve in the folder of the Idea named on the command line', () => {
  it('validate passes from another folder without --module-root; --module-root elsewhere still wins and names the missing module', async () => {
    const passed = await runCli(['validate', ideaArgument()], { cwd });
    expect(passed.stderr).toBe('');
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain(
      `ok      ${ideaArgument()} (no input message (the Idea takes no params); module ./helper.json resolves to helper.json)`,
    );

    // The given root wins: the module is looked up there, not beside the Idea.
    const overridden = await runCli(['validate', ideaArgument(), '--module-root', '.'], { cwd });
    expect(overridden.code).toBe(1);
    expect(overridden.stdout).toContain(`invalid ${ideaArgument()}`);
    expect(overridden.stderr).toContain(
      `ideact: ${ideaArgument()} at /schema/properties/calls/items/anyOf/0/properties/_module/const: ` +
        `Module "./helper.json" not found: no file at "${path.join(cwd, 'helper.json')}"`,
    );

    // And the root still bounds the references (R-MOD-6): the Idea's folder is no way out of it.
    const escaping = { ...AGENT, schema: JSON.parse(JSON.stringify(AGENT.schema)) };
    escaping.schema.properties.calls.items.anyOf[0].properties._module.const = '../x.json';
    await fs.writeFile(path.join(folder, 'escape.json'), JSON.stringify(escaping));
    const escaped = await runCli(['validate', path.join('..', 'other', 'folder', 'escape.json')], {
      cwd,
    });
    expect(escaped.code).toBe(1);
    expect(escaped.stderr).toMatch(
      /Module "\.\.\/x\.json" is not allowed: .*outside the module root/,
    );
  });

  it('run resolves the sibling module from another folder: the module Call runs its sub-request and returns its output', async () => {
    const server = await startChatCompletionsServer([
      { json: { calls: [{ _tool: 'helper', word: 'rain' }], output: null } },
      { json: { echo: 'rain rain' } },
      { json: { calls: [], output: 'done' } },
    ]);
    try {
      const result = await runCli(['run', ideaArgument(), '--provider', 'openai', '--json'], {
        cwd,
        env: { OPENAI_BASE_URL: server.baseURL },
      });
      expect(result.stderr).not.toContain('MODULE_NOT_FOUND');
      expect(result.code).toBe(0);
      const events = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as RunEvent);
      const callEnd = events.find((event) => event.type === 'call-end');
      expect(callEnd).toMatchObject({ tool: 'helper', output: { echo: 'rain rain' } });
      expect(events[events.length - 1]).toMatchObject({ type: 'run-end', output: 'done' });
      // The second request is the module's clean room: the helper's own system text, not the agent's.
      expect(JSON.stringify(server.requests[1]?.body)).toContain('Echo the word.');
      expect(JSON.stringify(server.requests[1]?.body)).not.toContain('Use the helper.');
    } finally {
      await server.close();
    }
  });

  it('run with --module-root elsewhere looks the module up there (the Call fails, naming the module)', async () => {
    const server = await startChatCompletionsServer([
      { json: { calls: [{ _tool: 'helper', word: 'rain' }], output: null } },
      { json: { calls: [], output: 'gave up' } },
    ]);
    try {
      const result = await runCli(
        ['run', ideaArgument(), '--provider', 'openai', '--module-root', '.'],
        { cwd, env: { OPENAI_BASE_URL: server.baseURL } },
      );
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        /^ {2}\d+:0 helper: MODULE_NOT_FOUND: Module "\.\/helper\.json" not found/m,
      );
    } finally {
      await server.close();
    }
  });

  it('codegen makes the @Module path relative to the Idea folder by default, to the given root with --module-root', async () => {
    const out = path.join(workDir, 'generated');
    const byDefault = await runCli(['codegen', ideaArgument(), '--out', out], { cwd });
    expect(byDefault.stderr).not.toContain('ideact:');
    expect(byDefault.code).toBe(0);
    expect(await fs.readFile(path.join(out, 'x.ts'), 'utf8')).toContain(
      "@Module('x.json', { resolution: 'upfront' })",
    );

    const rooted = await runCli(
      ['codegen', ideaArgument(), '--out', out, '--module-root', path.join('..', 'other')],
      { cwd },
    );
    expect(rooted.code).toBe(0);
    expect(await fs.readFile(path.join(out, 'x.ts'), 'utf8')).toContain(
      "@Module('folder/x.json', { resolution: 'upfront' })",
    );
  });
});
