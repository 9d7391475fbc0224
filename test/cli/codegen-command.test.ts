import { promises as fs } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, runCli, type CliRun } from './run-cli';

/** `ideact codegen` end to end through the built CLI (issue 7). */
const FIXTURES = path.join(REPO_ROOT, 'test', 'codegen', 'fixtures');

/** How a run ended, with its stderr: a failed assertion shows a signal or the error, not only the code. */
function exit(run: CliRun): Pick<CliRun, 'code' | 'signal' | 'stderr'> {
  return { code: run.code, signal: run.signal, stderr: run.stderr };
}

let workDir: string;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-codegen-'));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

describe('ideact codegen', () => {
  it('writes the same files as the expected fixtures and reports each one', async () => {
    const result = await runCli(['codegen', FIXTURES, '--out', workDir, '--module-root', FIXTURES]);
    expect(exit(result)).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toMatch(/^created\s+.*lyricist\.ts\s+\(Lyricist from /m);
    for (const name of ['lyricist', 'sound-designer', 'mixer']) {
      const generated = await fs.readFile(path.join(workDir, `${name}.ts`), 'utf8');
      expect(generated).toBe(await fs.readFile(path.join(FIXTURES, `${name}.ts`), 'utf8'));
    }
    // Unsupported schema parts are warnings on stderr naming the file and the JSON path.
    expect(result.stderr).toContain(
      `warning: ${path.join(FIXTURES, 'mixer.idea.json')} at /context/1/schema/properties/target/anyOf: anyOf is not supported in params`,
    );
  });

  it('--check exits 0 on fresh output and 1 naming stale and missing files', async () => {
    const lyricist = path.join(FIXTURES, 'lyricist.idea.json');
    const mixer = path.join(FIXTURES, 'mixer.idea.json');
    const codegen = ['codegen', lyricist, mixer, '--out', workDir, '--module-root', FIXTURES];
    const first = await runCli(codegen);
    expect(exit(first)).toMatchObject({ code: 0, signal: null });

    const fresh = await runCli([...codegen, '--check']);
    expect(exit(fresh)).toMatchObject({ code: 0, signal: null });
    expect(fresh.stdout).toMatch(/^fresh\s+.*lyricist\.ts/m);

    await fs.appendFile(path.join(workDir, 'lyricist.ts'), '// hand edit\n');
    await fs.rm(path.join(workDir, 'mixer.ts'));
    const stale = await runCli([...codegen, '--check']);
    expect(exit(stale)).toMatchObject({ code: 1, signal: null });
    expect(stale.stdout).toMatch(/^stale\s+.*lyricist\.ts/m);
    expect(stale.stdout).toMatch(/^missing\s+.*mixer\.ts/m);
    expect(stale.stderr).toContain('2 generated file(s) are stale or missing');
    expect(stale.stderr).toContain(path.join(workDir, 'lyricist.ts'));
    // --check writes nothing.
    await expect(fs.access(path.join(workDir, 'mixer.ts'))).rejects.toThrow();
  });

  it('a missing Idea file exits 2 with one line naming it', async () => {
    const missing = path.join(workDir, 'nope.json');
    const result = await runCli(['codegen', missing, '--out', workDir, '--module-root', workDir]);
    expect(exit(result)).toMatchObject({ code: 2, signal: null });
    expect(result.stderr).toBe(
      `ideact: Idea file not found: ${missing}. Check the path (it is relative to the current directory).\n`,
    );
  });

  it('invalid JSON exits 2 and the message names the file', async () => {
    const broken = path.join(workDir, 'broken.json');
    await fs.writeFile(broken, '{ "context": [ }');
    const result = await runCli(['codegen', broken, '--out', workDir, '--module-root', workDir]);
    expect(exit(result)).toMatchObject({ code: 2, signal: null });
    expect(result.stderr).toContain(`ideact: Invalid Idea in ${broken}`);
    expect(result.stderr).toContain('not valid JSON');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a remote $ref exits 2 naming it without a request; --allow-remote-refs fetches it (issue 14, item 10)', async () => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ type: 'string', enum: ['calm', 'wild'] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const reference = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mood.json`;
      const idea = path.join(workDir, 'song.json');
      await fs.writeFile(
        idea,
        JSON.stringify({
          context: [{ type: 'system', text: 'Write a song.' }],
          schema: { type: 'object', properties: { mood: { $ref: reference } } },
        }),
      );
      const out = path.join(workDir, 'out');
      const refused = await runCli(['codegen', idea, '--out', out, '--module-root', workDir]);
      expect(exit(refused)).toMatchObject({ code: 2, signal: null });
      expect(refused.stderr).toContain(
        `ideact: The schema in ${idea} at /schema/properties/mood/$ref`,
      );
      expect(refused.stderr).toContain(`"${reference}"`);
      expect(refused.stderr).toContain('--allow-remote-refs');
      expect(requests).toEqual([]);

      const allowed = await runCli([
        'codegen',
        idea,
        '--out',
        out,
        '--module-root',
        workDir,
        '--allow-remote-refs',
      ]);
      expect(allowed.stderr).not.toContain('ideact:');
      expect(exit(allowed)).toMatchObject({ code: 0, signal: null });
      expect(requests).toEqual(['/mood.json']);
      expect(await fs.readFile(path.join(out, 'song.ts'), 'utf8')).toMatch(/'calm' \| 'wild'/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('--out is required', async () => {
    const result = await runCli(['codegen', FIXTURES]);
    expect(exit(result)).toMatchObject({ code: 2, signal: null });
    expect(result.stderr).toContain("required option '--out <dir>' not specified");
  });

  it("checks the schema as validate does first: a draft-04 `id` gives validate's message, not a remote $ref or a file to open (issue 27 item 8)", async () => {
    // Both ways json-schema-to-typescript misread an `id`: as the base of a remote $ref, and as a
    // file path beside the Idea.
    const schemas: Record<string, { at: string; idea: unknown }> = {
      'remote.json': {
        at: '/schema',
        idea: {
          context: [{ type: 'system', text: 'Write a song.' }],
          schema: {
            id: 'http://example.com/song.json',
            type: 'object',
            properties: { mood: { $ref: 'http://example.com/song.json#/definitions/mood' } },
            definitions: { mood: { type: 'string' } },
          },
        },
      },
      'file.json': {
        at: '/context/0/schema',
        idea: {
          context: [
            {
              type: 'input',
              input: { topic: 'rain' },
              schema: {
                id: 'params',
                type: 'object',
                properties: { topic: { $ref: 'params#/definitions/topic' } },
                definitions: { topic: { type: 'string' } },
              },
            },
          ],
          schema: { type: 'object', properties: { title: { type: 'string' } } },
        },
      },
    };
    for (const [name, { at, idea }] of Object.entries(schemas)) {
      await fs.writeFile(path.join(workDir, name), JSON.stringify(idea));
      const validated = await runCli(['validate', name], { cwd: workDir });
      const generated = await runCli(['codegen', name, '--out', 'out'], { cwd: workDir });
      expect(exit(validated)).toMatchObject({ code: 1, signal: null });
      const message = validated.stderr.trimEnd();
      expect(message).toBe(
        `ideact: ${name} at ${at}: Invalid JSON Schema: NOT SUPPORTED: keyword "id", use "$id" for schema ID. ` +
          'Fix the schema so that it is valid JSON Schema (draft-07 or 2020-12 keywords).',
      );
      expect(generated.stderr.trimEnd()).toBe(message);
      expect(exit(generated)).toMatchObject({ code: 2, signal: null });
      expect(generated.stderr).not.toContain('--allow-remote-refs');
      expect(generated.stderr).not.toContain('Error opening file');
      await expect(fs.stat(path.join(workDir, 'out'))).rejects.toThrow();
    }
  });
});
