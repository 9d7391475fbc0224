import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDatabaseUrl } from '../support/test-database';
import { installPackedOffline } from './support/offline-install';

/**
 * Issue 29 item 3: a light core. The packed tarball installed alone (`npm ci --omit=dev` from a lockfile
 * of the versions `npm i <tarball>` resolves to today, from npm's cache: no network) is the core — it runs the offline agent, type-checks under the
 * README's tsconfig with `skipLibCheck: false`, and the heavy parts (PostgreSQL, MCP, codegen) fail
 * with MissingPackageError naming the package and its `npm i` line; after `npm i` of those extras
 * (the versions this repository locks), the same folder runs them.
 */
const ROOT = join(__dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const LYRICIST = join(ROOT, 'test', 'codegen', 'fixtures', 'lyricist.idea.json');

/** The production dependencies of the core, exactly: a new one must be a decision, not an accident. */
const CORE_DEPENDENCIES = [
  '@opentelemetry/api',
  '@streamparser/json',
  'ajv',
  'ajv-formats',
  'commander',
  'openai',
  'partial-json',
  'reflect-metadata',
  'typedi',
];
/** The optional peers (each loaded on first use of what needs it). */
const OPTIONAL_PEERS = [
  '@dbos-inc/dbos-sdk',
  '@modelcontextprotocol/sdk',
  '@opentelemetry/sdk-trace-node',
  'class-transformer',
  'class-validator',
  'class-validator-jsonschema',
  'json-schema-to-typescript',
  'pg',
];

let work: string;
let app: string;
let tarball: string;

function node(file: string, env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, [file], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ideact-light-core-'));
  app = join(work, 'app');
  mkdirSync(app);
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', app], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  tarball = join(app, packed.split('\n').at(-1) as string);
  installPackedOffline(app, tarball);
}, 180_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the core alone (issue 29 item 3)', () => {
  it('the tarball depends on exactly the core packages; the heavy ones are optional peers', () => {
    const manifest = JSON.parse(
      readFileSync(join(app, 'node_modules', 'ideact', 'package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(CORE_DEPENDENCIES);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(OPTIONAL_PEERS);
    for (const peer of OPTIONAL_PEERS) {
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
    // Nothing optional was installed with it.
    for (const peer of OPTIONAL_PEERS) {
      expect(existsSync(join(app, 'node_modules', peer))).toBe(false);
    }
  });

  it('runs the offline agent, from an ES module and from CommonJS', () => {
    const agent = `
      const echo = { type: 'object', properties: { _tool: { const: 'echo' }, text: { type: 'string' } }, required: ['_tool', 'text'] };
      const agent = ideact.createAgent({ tools: [echo], activities: [{ echo: (params) => params }], provider: new ideact.OfflineProvider() });
      agent.run({ task: 'Say hi.', maxTurns: 3 }).then((result) => process.stdout.write(result.stopReason));`;
    writeFileSync(join(app, 'agent.mjs'), `import * as ideact from 'ideact';\n${agent}`);
    writeFileSync(join(app, 'agent.cjs'), `const ideact = require('ideact');\n${agent}`);
    expect(node('agent.mjs')).toMatch(/^(output|no_calls)$/);
    expect(node('agent.cjs')).toMatch(/^(output|no_calls)$/);
  });

  it("type-checks under the README's tsconfig with skipLibCheck: false (no optional package's types needed)", () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['main.ts'],
      }),
    );
    writeFileSync(
      join(app, 'main.ts'),
      `import { createAgent, createMcpServer, mcpTools, PostgresRunStore, startWorker, generateFromIdeas, OfflineProvider, type IdeactMcpServer, type McpToolset, type ToolSchema } from 'ideact';
       import { ScriptedProvider } from 'ideact/testing';
       const echo: ToolSchema = { type: 'object', properties: { _tool: { const: 'echo' } }, required: ['_tool'] };
       const agent = createAgent({ tools: [echo], provider: new OfflineProvider() });
       const used: unknown[] = [agent, createMcpServer, mcpTools, PostgresRunStore, startWorker, generateFromIdeas, ScriptedProvider];
       export type Served = IdeactMcpServer | McpToolset;
       console.log(used.length);\n`,
    );
    const result = (() => {
      try {
        return execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], {
          cwd: app,
          encoding: 'utf8',
        });
      } catch (error) {
        return (error as { stdout: string }).stdout;
      }
    })();
    expect(result).toBe('');
  });

  it('names the package to install for PostgreSQL, MCP and codegen', () => {
    writeFileSync(
      join(app, 'extras.mjs'),
      `import { createContainer, createMcpServer, generateFromIdeas, mcpTools, MissingPackageError, OfflineProvider, PostgresRunStore } from 'ideact';
       const report = {};
       const attempt = async (name, body) => {
         try { await body(); report[name] = 'ran'; }
         catch (error) { report[name] = MissingPackageError.isInstance(error) ? [error.code, error.packageName, error.installCommand] : String(error); }
       };
       await attempt('postgres', () => new PostgresRunStore({ connectionString: process.env.DATABASE_URL, schema: 'ideact_light_core' }).list());
       await attempt('mcpClient', async () => { const tools = await mcpTools({ command: process.execPath, args: [${JSON.stringify(EVERYTHING)}, 'stdio'] }); await tools.close(); });
       await attempt('mcpServer', async () => { const server = await createMcpServer(createContainer({ tools: [], provider: new OfflineProvider() })); await server.close(); });
       await attempt('codegen', () => generateFromIdeas([${JSON.stringify(LYRICIST)}], { outDir: 'generated' }));
       process.stdout.write(JSON.stringify(report));\n`,
    );
    expect(JSON.parse(node('extras.mjs', { DATABASE_URL: 'postgres://127.0.0.1:9/none' }))).toEqual(
      {
        postgres: ['MISSING_PACKAGE', 'pg', 'npm i pg'],
        mcpClient: [
          'MISSING_PACKAGE',
          '@modelcontextprotocol/sdk',
          'npm i @modelcontextprotocol/sdk',
        ],
        mcpServer: [
          'MISSING_PACKAGE',
          '@modelcontextprotocol/sdk',
          'npm i @modelcontextprotocol/sdk',
        ],
        codegen: [
          'MISSING_PACKAGE',
          'json-schema-to-typescript',
          'npm i json-schema-to-typescript',
        ],
      },
    );
  });

  it('after npm i of the extras, the same folder runs them', async () => {
    installPackedOffline(app, tarball, [
      'pg',
      '@modelcontextprotocol/sdk',
      'json-schema-to-typescript',
    ]);
    const databaseUrl = await testDatabaseUrl();
    const report = JSON.parse(node('extras.mjs', { DATABASE_URL: databaseUrl })) as Record<
      string,
      unknown
    >;
    expect(report).toEqual({
      postgres: 'ran',
      mcpClient: 'ran',
      mcpServer: 'ran',
      codegen: 'ran',
    });
    execFileSync('psql', [databaseUrl, '-c', 'DROP SCHEMA IF EXISTS ideact_light_core CASCADE'], {
      stdio: 'ignore',
    });
  }, 120_000);
});
