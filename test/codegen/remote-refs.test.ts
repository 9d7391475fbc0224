import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateFromIdeas, InvalidSchemaError } from 'ideact';
import { typeCheck } from '../support/compile-typescript';

jest.mock('prettier', () => jest.requireActual('./prettier-standalone'));

/**
 * Issue 14 item 10: codegen stays offline. A remote (http/https) `$ref` is fetched only with
 * `allowRemoteRefs`; otherwise it is an `InvalidSchemaError` naming the file and the ref, and the
 * server is never asked. A `$ref` into the schema's own `$id` resolves locally.
 */
const MOOD_SCHEMA = { type: 'string', enum: ['calm', 'wild'] };

let server: Server;
let requests: string[];
let base: string;
let workDir: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(MOOD_SCHEMA));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  requests = [];
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-remote-refs-'));
});

afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

/** Writes `song.json` (an Idea whose output schema is `schema`) into the work dir. */
async function writeIdea(schema: unknown): Promise<string> {
  const file = path.join(workDir, 'song.json');
  const idea = { context: [{ type: 'system', text: 'Write a song.' }], schema };
  await fs.writeFile(file, JSON.stringify(idea, null, 2));
  return file;
}

function songSchema(moodReference: string): Record<string, unknown> {
  return {
    type: 'object',
    properties: { title: { type: 'string' }, mood: { $ref: moodReference } },
    required: ['title', 'mood'],
  };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected codegen to fail');
    },
    (error: unknown) => error,
  );
}

/**
 * Type-checks a generated file with two uses of its types in one program: `ok` must compile, `wrong`
 * must not. Returns the messages of each use.
 */
async function checkUses(
  generated: string,
  uses: { ok: string; wrong: string },
): Promise<{ ok: string[]; wrong: string[] }> {
  const okFile = path.join(path.dirname(generated), 'use-ok.ts');
  const wrongFile = path.join(path.dirname(generated), 'use-wrong.ts');
  await fs.writeFile(okFile, uses.ok);
  await fs.writeFile(wrongFile, uses.wrong);
  const diagnostics = typeCheck([generated, okFile, wrongFile]);
  const of = (file: string): string[] =>
    diagnostics
      .filter((diagnostic) => path.resolve(diagnostic.file ?? '') === file)
      .map((diagnostic) => diagnostic.message);
  return { ok: of(okFile), wrong: of(wrongFile) };
}

const WRONG_MOOD = `import type { SongOutput } from './song';\nexport const song: SongOutput = { title: 't', mood: 'sad' };\n`;

describe('codegen and remote $refs (issue 14, item 10)', () => {
  it('without allowRemoteRefs a remote $ref is an InvalidSchemaError naming the file and the ref; no request is made', async () => {
    const reference = `${base}/mood.json`;
    const file = await writeIdea(songSchema(reference));
    const error = await failure(
      generateFromIdeas([file], { outDir: path.join(workDir, 'out'), moduleRoot: workDir }),
    );
    expect(InvalidSchemaError.isInstance(error)).toBe(true);
    const typed = error as InvalidSchemaError;
    expect(typed.code).toBe('INVALID_SCHEMA');
    expect(typed.message).toContain(file);
    expect(typed.message).toContain(`"${reference}"`);
    expect(typed.message).toContain('/schema/properties/mood/$ref');
    expect(typed.message).toContain('--allow-remote-refs');
    expect(requests).toEqual([]);
  });

  it('a remote $ref inside a referenced local file is refused too (no request)', async () => {
    await fs.writeFile(
      path.join(workDir, 'types.json'),
      JSON.stringify({ $defs: { Mood: { $ref: `${base}/mood.json` } } }),
    );
    const file = await writeIdea(songSchema('./types.json#/$defs/Mood'));
    const error = await failure(
      generateFromIdeas([file], { outDir: path.join(workDir, 'out'), moduleRoot: workDir }),
    );
    expect(InvalidSchemaError.isInstance(error)).toBe(true);
    expect((error as InvalidSchemaError).code).toBe('INVALID_SCHEMA');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(`${base}/mood.json`);
    expect(requests).toEqual([]);
  });

  it('with allowRemoteRefs the remote schema is fetched and typed', async () => {
    const file = await writeIdea(songSchema(`${base}/mood.json`));
    const outDir = path.join(workDir, 'out');
    const result = await generateFromIdeas([file], {
      outDir,
      moduleRoot: workDir,
      allowRemoteRefs: true,
    });
    expect(requests).toEqual(['/mood.json']);
    const generated = result.files[0]!.outFile;
    const ok = `import type { SongOutput } from './song';\nexport const song: SongOutput = { title: 't', mood: 'calm' };\n`;
    const checked = await checkUses(generated, { ok, wrong: WRONG_MOOD });
    expect(checked.ok).toEqual([]);
    expect(checked.wrong.join('\n')).toMatch(/"sad".*not assignable/);
  });

  it('a $ref to the schema’s own $id (plus a fragment) resolves locally, in output and params', async () => {
    const id = `${base}/song.json`;
    const schema = {
      $id: id,
      ...songSchema(`${id}#/$defs/Mood`),
      $defs: { Mood: MOOD_SCHEMA },
    };
    const file = path.join(workDir, 'song.json');
    const idea = {
      context: [
        { type: 'system', text: 'Write a song.' },
        {
          type: 'input',
          input: { mood: 'calm' },
          schema: {
            $id: `${base}/params.json`,
            type: 'object',
            properties: { mood: { $ref: `${base}/params.json#/$defs/Mood` } },
            required: ['mood'],
            $defs: { Mood: MOOD_SCHEMA },
          },
        },
      ],
      schema,
    };
    await fs.writeFile(file, JSON.stringify(idea, null, 2));
    const outDir = path.join(workDir, 'out');
    const result = await generateFromIdeas([file], { outDir, moduleRoot: workDir });
    expect(requests).toEqual([]);
    const generated = result.files[0]!.outFile;
    const source = await fs.readFile(generated, 'utf8');
    // The params class validates the enum it found through the local $ref.
    expect(source).toMatch(/@IsIn\(\['calm', 'wild'\]\)\s+mood!: /);
    const ok = `import type { SongInput, SongOutput } from './song';\nexport const song: SongOutput = { title: 't', mood: 'wild' };\nexport const params: SongInput = { mood: 'calm' };\n`;
    const checked = await checkUses(generated, { ok, wrong: WRONG_MOOD });
    expect(checked.ok).toEqual([]);
    expect(checked.wrong.join('\n')).toMatch(/"sad".*not assignable/);
  });
});
