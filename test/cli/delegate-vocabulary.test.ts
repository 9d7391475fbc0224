import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgent, parseIdea, vesselIdeaParts } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { musicScript } from '../../examples/music/script';
import { REPO_ROOT, runCli } from './run-cli';

/** `ideact validate` and `ideact inspect` on Ideas written in the newer vocabulary (R-DEL-1, R-DEL-2). */
const MUSIC = path.join(REPO_ROOT, 'examples', 'music', 'ideas');

let workDir: string;
beforeEach(async () => {
  workDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-delegate-')));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** Copies the music Ideas into the work dir with `_delegate` / `_scopes` instead of the seed names. */
async function musicInNewerNames(): Promise<void> {
  for (const name of await fs.readdir(MUSIC)) {
    const text = await fs.readFile(path.join(MUSIC, name), 'utf8');
    await fs.writeFile(
      path.join(workDir, name),
      text.replace(/"_module"/g, '"_delegate"').replace(/"_imports"/g, '"_scopes"'),
    );
  }
}

/** A vessel Idea whose one Tool has `meta` (its delegate fields). */
function agentIdea(meta: Record<string, unknown>): unknown {
  return {
    context: [],
    schema: {
      type: 'object',
      properties: {
        calls: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: { _tool: { const: 'next' }, ...meta },
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
  await fs.writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

describe('ideact validate with `_delegate` (R-DEL-1, R-DEL-2)', () => {
  it('R-DEL-1 accepts the music Ideas written with `_delegate` / `_scopes`; notes say "delegate"', async () => {
    await musicInNewerNames();
    const files = ['producer', 'composer', 'sound-designer'].map((name) =>
      path.join(workDir, `${name}.json`),
    );
    const result = await runCli(['validate', ...files, '--module-root', workDir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('delegate composer.json resolves to composer.json');
    expect(result.stdout).toContain('delegate sound-designer.json resolves to sound-designer.json');
    expect(result.stdout).not.toContain('module composer.json');
  });

  it('R-DEL-1 a delegate cycle and a missing delegate are reported at the `_delegate` path', async () => {
    const first = await write('a.json', agentIdea({ _delegate: { const: 'b.json' } }));
    await write('b.json', agentIdea({ _delegate: { const: 'a.json' } }));
    const missing = await write(
      'missing.json',
      agentIdea({ _delegate: { const: 'nowhere.json' } }),
    );
    const result = await runCli(['validate', first, missing, '--module-root', workDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '/schema/properties/calls/items/anyOf/0/properties/_delegate/const: delegate cycle: a.json → b.json → a.json',
    );
    expect(result.stderr).toContain('Module "nowhere.json" not found');
    expect(result.stderr).toContain('fix the `_module` / `_delegate` reference');
  });

  it('R-DEL-2 `_module` and `_delegate` naming different Ideas: invalid, naming the file, the path and the tool', async () => {
    await write('target.json', { context: [], schema: { type: 'string' } });
    const both = await write(
      'both.json',
      agentIdea({ _module: { const: 'target.json' }, _delegate: { const: 'other.json' } }),
    );
    const same = await write(
      'same.json',
      agentIdea({ _module: { const: 'target.json' }, _delegate: { const: 'target.json' } }),
    );
    const result = await runCli(['validate', both, same, '--module-root', workDir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`invalid ${both}`);
    expect(result.stderr).toContain(
      `Invalid Idea in ${both} at /schema/properties/calls/items/anyOf/0/properties/_delegate: tool "next" writes both "_module"`,
    );
    // Both names with one value are one reference, resolved once.
    expect(result.stdout).toContain(
      `ok      ${same} (no input message (the Idea takes no params); module target.json resolves to target.json)`,
    );
  });
});

describe('ideact inspect of a run of `_delegate` Ideas', () => {
  it('R-DEL-1 shows the nested delegate runs like module runs', async () => {
    await musicInNewerNames();
    const file = path.join(workDir, 'producer.json');
    const parts = vesselIdeaParts(parseIdea(JSON.parse(await fs.readFile(file, 'utf8')), file))!;
    const script = musicScript();
    const provider = new ScriptedProvider((request, index) =>
      JSON.parse(JSON.stringify(script(request, index)).replace(/"_imports"/g, '"_scopes"')),
    );
    const stateFile = path.join(workDir, 'run.json');
    const agent = createAgent({ tools: parts.tools, provider, moduleRoot: workDir });
    const result = await agent.run({
      context: parts.context,
      output: parts.output,
      maxTurns: 6,
      stateFile,
    });
    expect(result.stopReason).toBe('output');

    const inspected = await runCli(['inspect', stateFile]);
    expect(inspected.stderr).toBe('');
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain('vessel: 2 calls [composer, soundDesigner]');
    expect(inspected.stdout).toContain(
      `nested run 1 (module chain: ${path.join(workDir, 'composer.json')})`,
    );
    expect(inspected.stdout).toContain('result soundDesigner: ok');
    expect(inspected.stdout).toContain('stopped: output');
  });
});
