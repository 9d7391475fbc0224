import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  InvalidIdeaError,
  ModuleLoader,
  ModuleNotFoundError,
  ModulePathError,
  ModuleUrlError,
  type Idea,
  type ToolSchema,
} from 'ideact';

const idea: Idea = {
  name: 'echo',
  context: [
    { type: 'system', text: 'Echo the input.' },
    {
      type: 'input',
      input: { text: 'example' },
      schema: {
        type: 'object',
        properties: { text: { type: 'string' }, loud: { type: 'boolean' } },
        required: ['text'],
      },
    },
  ],
  schema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
};

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-loader-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(root, 'nested'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(root, 'echo.json'), JSON.stringify(idea));
  await fs.writeFile(path.join(root, 'nested', 'deep.json'), JSON.stringify(idea));
  await fs.writeFile(path.join(outside, 'secret.json'), JSON.stringify(idea));
  await fs.writeFile(path.join(root, 'notes.txt'), 'not an idea');
  await fs.writeFile(path.join(root, 'broken.json'), '{\n  "context": [],\n  "schema": }\n');
  await fs.writeFile(path.join(root, 'no-schema.json'), JSON.stringify({ context: [] }));
  await fs.symlink(path.join(outside, 'secret.json'), path.join(root, 'escape.json'));
  await fs.symlink(path.join(root, 'echo.json'), path.join(root, 'alias.json'));
  await fs.writeFile(path.join(root, '..notes.json'), JSON.stringify(idea));
  await fs.mkdir(path.join(root, 'folder.json'));
  await fs.writeFile(
    path.join(root, 'dangling-ref.json'),
    JSON.stringify({
      ...idea,
      schema: { type: 'object', properties: { echoed: { $ref: '#/$defs/Missing' } } },
    }),
  );
  await fs.writeFile(
    path.join(root, 'cyclic-ref.json'),
    JSON.stringify({
      ...idea,
      schema: { $ref: '#/$defs/A', $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } },
    }),
  );
  await fs.writeFile(
    path.join(root, 'input-ref.json'),
    JSON.stringify({
      ...idea,
      context: [
        {
          type: 'input',
          input: {},
          schema: { type: 'object', properties: { text: { $ref: '#/definitions/Text' } } },
        },
      ],
    }),
  );
  await fs.writeFile(
    path.join(root, 'recursive.json'),
    JSON.stringify({
      ...idea,
      schema: {
        $ref: '#/$defs/Node',
        $defs: {
          Node: {
            type: 'object',
            properties: { name: { type: 'string' }, children: { items: { $ref: '#/$defs/Node' } } },
          },
        },
      },
    }),
  );
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('ModuleLoader: local Idea files (R-MOD-6)', () => {
  it('loads and validates an Idea under the root; the id is the real path', async () => {
    const loader = new ModuleLoader({ moduleRoot: root });
    const loaded = await loader.load('nested/deep.json');
    expect(loaded.reference).toBe('nested/deep.json');
    expect(loaded.id).toBe(await fs.realpath(path.join(root, 'nested', 'deep.json')));
    expect(loaded.idea.schema).toEqual(idea.schema);
  });

  it('caches by canonical id: concurrent and repeated loads share one parse; failures are not cached', async () => {
    const loader = new ModuleLoader({ moduleRoot: root });
    const [first, second] = await Promise.all([
      loader.load('echo.json'),
      loader.load('./echo.json'),
    ]);
    expect(second.idea).toBe(first.idea);
    const viaSymlink = await loader.load('alias.json');
    expect(viaSymlink.idea).toBe(first.idea);

    await expect(loader.load('later.json')).rejects.toThrow(ModuleNotFoundError);
    await fs.writeFile(path.join(root, 'later.json'), JSON.stringify(idea));
    await expect(loader.load('later.json')).resolves.toMatchObject({ reference: 'later.json' });
  });

  it('accepts an absolute path inside the root', async () => {
    const loader = new ModuleLoader({ moduleRoot: root });
    await expect(loader.load(path.join(root, 'echo.json'))).resolves.toBeDefined();
  });

  it.each([
    ['../outside/secret.json', 'outside the module root'],
    ['nested/../../outside/secret.json', 'outside the module root'],
  ])(
    'rejects a relative escape %s with ModulePathError naming the path and root',
    async (ref, why) => {
      const error = await failure(new ModuleLoader({ moduleRoot: root }).load(ref));
      expect(ModulePathError.isInstance(error)).toBe(true);
      expect(error.message).toContain(ref);
      expect(error.message).toContain(root);
      expect(error.message).toContain(why);
    },
  );

  it('rejects an absolute path outside the root', async () => {
    const ref = path.join(outside, 'secret.json');
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load(ref));
    expect(error).toBeInstanceOf(ModulePathError);
    expect((error as ModulePathError).path).toBe(ref);
    expect((error as ModulePathError).root).toBe(root);
  });

  it('rejects a symlink whose target leaves the root', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('escape.json'));
    expect(error).toBeInstanceOf(ModulePathError);
    expect(error.message).toContain('symbolic link');
    expect(error.message).toContain('escape.json');
  });

  it('rejects files that are not .json', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('notes.txt'));
    expect(error).toBeInstanceOf(ModulePathError);
    expect(error.message).toContain('.json');
  });

  it('reports a missing file with ModuleNotFoundError naming it', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('missing.json'));
    expect(error).toBeInstanceOf(ModuleNotFoundError);
    expect(error.message).toContain('missing.json');
  });

  it('reports invalid JSON with InvalidIdeaError naming the file (and the line when known)', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('broken.json'));
    expect(error).toBeInstanceOf(InvalidIdeaError);
    expect(error.message).toContain(path.join('root', 'broken.json'));
    expect(error.message).toContain('not valid JSON');
  });

  it('reports an Idea without schema with InvalidIdeaError naming the file and /schema', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('no-schema.json'));
    expect(error).toBeInstanceOf(InvalidIdeaError);
    expect((error as InvalidIdeaError).jsonPath).toBe('/schema');
    expect(error.message).toContain('no-schema.json');
  });

  it('issue 14 item 13: a file named "..notes.json" inside the root is inside it (".." only as a whole segment)', async () => {
    const loaded = await new ModuleLoader({ moduleRoot: root }).load('..notes.json');
    expect(loaded.id).toBe(await fs.realpath(path.join(root, '..notes.json')));
    expect(loaded.idea.schema).toEqual(idea.schema);
  });

  it('issue 14 item 13: a NUL byte in the path is a ModulePathError naming the path, not a raw Node error', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('echo\0.json'));
    expect(ModulePathError.isInstance(error)).toBe(true);
    expect((error as ModulePathError).code).toBe('MODULE_PATH');
    expect((error as ModulePathError).path).toBe('echo\0.json');
    expect(error.message).toContain('"echo\\u0000.json"');
    expect(error.message).toContain('NUL byte');
    expect(error.message).toContain(root);
  });

  it('issue 14 item 13: a path that is a directory is a ModulePathError naming it, not EISDIR', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('folder.json'));
    expect(ModulePathError.isInstance(error)).toBe(true);
    expect((error as ModulePathError).code).toBe('MODULE_PATH');
    expect((error as ModulePathError).path).toBe('folder.json');
    expect(error.message).toContain('is a directory, not an Idea file');
  });

  it('issue 14 item 13: a path through a file ("echo.json/x.json") is a ModuleNotFoundError, not ENOTDIR', async () => {
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load('echo.json/x.json'));
    expect(ModuleNotFoundError.isInstance(error)).toBe(true);
    expect((error as ModuleNotFoundError).code).toBe('MODULE_NOT_FOUND');
    expect(error.message).toContain('echo.json/x.json');
  });

  it.each([
    [
      'dangling-ref.json',
      '/schema/properties/echoed/$ref',
      ['"#/$defs/Missing"', 'points at nothing'],
    ],
    [
      'cyclic-ref.json',
      '/schema/$defs/A/$ref',
      ['"#/$defs/B"', '$ref cycle', '#/$defs/A → #/$defs/B → #/$defs/A'],
    ],
    [
      'input-ref.json',
      '/context/0/schema/properties/text/$ref',
      ['"#/definitions/Text"', 'points at nothing'],
    ],
  ])(
    'issue 14 item 13: %s fails with InvalidIdeaError naming the file, the JSON path and the $ref',
    async (file, jsonPath, names) => {
      const error = await failure(new ModuleLoader({ moduleRoot: root }).load(file));
      expect(InvalidIdeaError.isInstance(error)).toBe(true);
      expect((error as InvalidIdeaError).code).toBe('INVALID_IDEA');
      expect((error as InvalidIdeaError).jsonPath).toBe(jsonPath);
      expect(error.message).toContain(file);
      expect(error.message).toContain(jsonPath);
      for (const name of names) expect(error.message).toContain(name);
    },
  );

  it('a recursive schema (a $ref back to its definition through properties) is fine', async () => {
    const loaded = await new ModuleLoader({ moduleRoot: root }).load('recursive.json');
    expect(loaded.idea.schema.$ref).toBe('#/$defs/Node');
  });

  it('enforces the size cap on files', async () => {
    const error = await failure(
      new ModuleLoader({ moduleRoot: root, maxBytes: 10 }).load('echo.json'),
    );
    expect(error).toBeInstanceOf(InvalidIdeaError);
    expect(error.message).toContain('size cap');
  });
});

describe('ModuleLoader: URLs (R-MOD-6)', () => {
  let server: http.Server;
  let origin: string;
  let requests = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      requests += 1;
      if (request.url === '/echo.json') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(idea));
      } else if (request.url === '/big.json') {
        response.end(JSON.stringify({ ...idea, description: 'x'.repeat(5000) }));
      } else if (request.url === '/redirect.json') {
        response.statusCode = 302;
        response.setHeader('location', 'http://example.com/echo.json');
        response.end();
      } else if (request.url === '/slow.json') {
        // Never answers: the loader's timeout must end the request.
      } else {
        response.statusCode = 404;
        response.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('loads from an allowed host, once (cached by URL)', async () => {
    const loader = new ModuleLoader({ moduleRoot: root, allowedHosts: ['127.0.0.1'] });
    const before = requests;
    const first = await loader.load(`${origin}/echo.json`);
    const second = await loader.load(`${origin}/echo.json`);
    expect(first.id).toBe(`${origin}/echo.json`);
    expect(second.idea).toBe(first.idea);
    expect(requests - before).toBe(1);
  });

  it('refuses a host that is not allow-listed, naming the host', async () => {
    const before = requests;
    const error = await failure(new ModuleLoader({ moduleRoot: root }).load(`${origin}/echo.json`));
    expect(error).toBeInstanceOf(ModuleUrlError);
    expect(error.message).toContain('127.0.0.1');
    expect(error.message).toContain('allowedModuleHosts');
    expect(requests).toBe(before);
  });

  it('refuses other schemes', async () => {
    const error = await failure(
      new ModuleLoader({ moduleRoot: root }).load('file:///etc/passwd.json'),
    );
    expect(error).toBeInstanceOf(ModuleUrlError);
    expect(error.message).toContain('file:');
  });

  it('applies the size cap, refuses redirects and HTTP errors, and times out', async () => {
    const loader = new ModuleLoader({
      moduleRoot: root,
      allowedHosts: ['127.0.0.1'],
      maxBytes: 2000,
      timeoutMs: 200,
    });
    const big = await failure(loader.load(`${origin}/big.json`));
    expect(big).toBeInstanceOf(ModuleUrlError);
    expect(big.message).toContain('larger than 2000 bytes');
    const redirect = await failure(loader.load(`${origin}/redirect.json`));
    expect(redirect).toBeInstanceOf(ModuleUrlError);
    expect(redirect.message).toContain('redirect');
    const missing = await failure(loader.load(`${origin}/missing.json`));
    expect(missing.message).toContain('HTTP 404');
    const slow = await failure(loader.load(`${origin}/slow.json`));
    expect(slow).toBeInstanceOf(ModuleUrlError);
    expect(slow.message).toContain('200 ms');
  });
});

describe('ModuleLoader.resolveUpfront (R-MOD-4)', () => {
  const tool: ToolSchema = {
    type: 'object',
    description: 'Echo a text.',
    properties: {
      _tool: { const: 'echo' },
      _module: { const: 'echo.json' },
      _resolution: { const: 'upfront' },
      text: { type: 'number', description: 'the tool says number; the module says string' },
      extra: { type: 'string' },
    },
    required: ['_tool', 'extra'],
  };

  it('merges the module input schema into the params (module wins) and sets _output', async () => {
    const resolved = await new ModuleLoader({ moduleRoot: root }).resolveUpfront(tool);
    expect(resolved.properties.text).toEqual({ type: 'string' });
    expect(resolved.properties.loud).toEqual({ type: 'boolean' });
    expect(resolved.properties.extra).toEqual({ type: 'string' });
    expect(resolved.properties._output).toEqual(idea.schema);
    expect(resolved.properties._module).toEqual({ const: 'echo.json' });
    expect(resolved.required).toEqual(['_tool', 'extra', 'text']);
    expect(tool.properties._output).toBeUndefined();
  });

  it('leaves inline and anonymous tools unchanged', async () => {
    const loader = new ModuleLoader({ moduleRoot: root });
    const inline: ToolSchema = { type: 'object', properties: { _tool: { const: 'x' } } };
    const anonymous: ToolSchema = {
      type: 'object',
      properties: { _tool: { const: 'y' }, _module: { const: 'anonymous' } },
    };
    expect(await loader.resolveUpfront(inline)).toBe(inline);
    expect(await loader.resolveUpfront(anonymous)).toBe(anonymous);
  });
});

describe('examples/music/ideas', () => {
  it.each(['producer.json', 'composer.json', 'sound-designer.json'])(
    '%s is a valid Idea',
    async (file) => {
      const loader = new ModuleLoader({
        moduleRoot: path.join(__dirname, '../../examples/music/ideas'),
      });
      const loaded = await loader.load(file);
      expect(loaded.idea.context.some((message) => message.type === 'input')).toBe(true);
    },
  );
});
