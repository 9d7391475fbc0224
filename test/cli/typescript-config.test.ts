import { spawnSync, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tripParams } from '../../examples/trip/run-trip';
import { http, readEventStream, waitFor } from '../dev/support/http-client';
import { CLI, REPO_ROOT, runCli, type CliRun } from './run-cli';

/**
 * Issue 29 item 2: `ideact dev --config ideact.config.ts` and `ideact mcp serve --config …` load a
 * TypeScript config with the tsx of the USER's project, and say which package to install when it has
 * none. Each case is a real project folder outside the repository (so nothing resolves from the
 * repository's own node_modules): its node_modules links ideact (this built package), the runtime
 * dependencies the config imports, and tsx or not. The config is examples/trip's: decorated Tools
 * and an @Inject-ed service, which tsx compiles without decorator metadata (item 1).
 */
const LINKED = ['class-transformer', 'class-validator', 'reflect-metadata', 'typedi'];

/** The README's "Install in your app" tsconfig.json. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    outDir: 'dist',
  },
};

let root: string;
beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-ts-config-')));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** An ES module config beside the CommonJS one: `import` of `./tools.js` (tsx maps it to tools.ts). */
const MTS_CONFIG = `import type { IdeactConfig } from 'ideact';
import { PlanTrip, TripActivities } from './tools.js';

const config: IdeactConfig = { tools: [PlanTrip], activities: [TripActivities] };
export default config;
`;

/** A project folder with the trip example's configs, ideact, its dependencies and `loaders`. */
async function project(name: string, loaders: string[]): Promise<string> {
  const dir = path.join(root, name);
  const modules = path.join(dir, 'node_modules');
  await fs.mkdir(modules, { recursive: true });
  await fs.writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, private: true, type: 'commonjs' }),
  );
  await fs.writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  for (const file of ['tools.ts', 'ideact.config.ts']) {
    await fs.copyFile(path.join(REPO_ROOT, 'examples', 'trip', file), path.join(dir, file));
  }
  await fs.writeFile(path.join(dir, 'ideact.config.mts'), MTS_CONFIG);
  await fs.symlink(REPO_ROOT, path.join(modules, 'ideact'), 'dir');
  for (const name of [...LINKED, ...loaders]) {
    await fs.symlink(path.join(REPO_ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  }
  return dir;
}

/** Whether `specifier` resolves from `dir` as Node would resolve it for a file there. */
function resolvable(dir: string, specifier: string): boolean {
  try {
    createRequire(path.join(dir, 'noop.js')).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

describe('a TypeScript --config (issue 29 item 2)', () => {
  it('`ideact dev --config ideact.config.ts` with tsx in the project: lists the decorated Tools and runs one with its injected services', async () => {
    const cwd = await project('with-tsx', ['tsx']);
    let child: ChildProcess | undefined;
    const done: Promise<CliRun> = runCli(['dev', '--config', 'ideact.config.ts', '--port', '0'], {
      cwd,
      onSpawn: (spawned) => (child = spawned),
    });
    try {
      let stdout = '';
      child!.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const url = await waitFor(
        async () => /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout)?.[0],
        15_000,
      );
      const tools = (await http(url, '/api/tools')).json.tools;
      expect(tools).toEqual([expect.objectContaining({ name: 'planTrip', kind: 'explicit' })]);
      const detail = (await http(url, '/api/tools/planTrip')).json;
      expect(JSON.stringify(detail)).toContain('"pattern":"^\\\\d{4}-\\\\d{2}-\\\\d{2}$"');
      const started = await http(url, '/api/runs', {
        method: 'POST',
        body: { tool: 'planTrip', params: tripParams() },
      });
      expect(started.status).toBe(202);
      const events = await readEventStream(url, `/api/runs/${started.json.runId}/events`);
      expect(events.find((item) => item.data.type === 'call-end')?.data.output).toMatchObject({
        total: '735 km',
        instances: true,
      });
    } finally {
      child?.kill('SIGINT');
    }
    const result = await done;
    expect(result.code).toBe(0);
  }, 40_000);

  it('`ideact mcp serve --config ideact.config.mts` (an ES module) with tsx in the project: serves and runs the Tool', async () => {
    const cwd = await project('with-tsx-esm', ['tsx']);
    const client = new Client({ name: 'ts-config-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', 'serve', '--config', 'ideact.config.mts', '--provider', 'offline'],
        cwd,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['planTrip']);
      const result = await client.callTool({ name: 'planTrip', arguments: tripParams() });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain('"total":"735 km"');
      expect(JSON.stringify(result.structuredContent)).toContain('"instances":true');
    } finally {
      await client.close();
    }
  }, 40_000);

  it.each([
    ['dev', ['dev', '--config', 'ideact.config.ts', '--port', '0']],
    ['mcp serve', ['mcp', 'serve', '--config', 'ideact.config.ts', '--provider', 'offline']],
  ])(
    '`ideact %s` in a project without tsx: exit 2, the TYPESCRIPT_LOADER_MISSING message naming the file and `npm i -D tsx`',
    async (command, args) => {
      const cwd = await project(`without-loader-${command.replace(' ', '-')}`, []);
      expect(resolvable(cwd, 'tsx/package.json')).toBe(false);
      const result = await runCli(args, { cwd });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `ideact: Cannot load the TypeScript module ${path.join(cwd, 'ideact.config.ts')}: ideact loads .ts, .mts and .cts files with tsx from your project, and it is not installed there`,
      );
      expect(result.stderr).toContain('npm i -D tsx');
    },
  );

  it('the error is a TypeScriptLoaderMissingError (code, package, install command) from the public API too', async () => {
    const cwd = await project('without-loader-api', []);
    // A user's script in that project: `ideact` resolves to its node_modules (this built package).
    const script = `
      const ideact = require('ideact');
      ideact.startDevServer({ config: 'ideact.config.ts', port: 0 }).then(
        (server) => server.close().then(() => console.log('started')),
        (error) => console.log(JSON.stringify({
          code: error.code,
          configuration: ideact.ConfigurationError.isInstance(error),
          typed: ideact.TypeScriptLoaderMissingError.isInstance(error),
          file: error.file,
          packages: error.packages,
          installCommand: error.installCommand,
        })),
      );`;
    const child = spawnSync(process.execPath, ['-e', script], { cwd, encoding: 'utf8' });
    expect(JSON.parse(child.stdout)).toEqual({
      code: 'TYPESCRIPT_LOADER_MISSING',
      configuration: true,
      typed: true,
      file: path.join(cwd, 'ideact.config.ts'),
      packages: ['tsx'],
      installCommand: 'npm i -D tsx',
    });
  });
});
