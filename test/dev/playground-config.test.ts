import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRunStore, PlaygroundConfigError, startDevServer, type DevServer } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { http, readEventStream } from './support/http-client';

/** Issue 20 item 1: `--config` loads a module exporting a container or a configuration. */
let dir: string;
const servers: DevServer[] = [];
beforeAll(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-playground-config-')));
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const ECHO_TOOL = `{
  type: 'object',
  description: 'Echoes a word.',
  properties: { _tool: { const: 'echo' }, word: { type: 'string' } },
  required: ['_tool', 'word'],
}`;

async function serve(file: string, source: string): Promise<DevServer> {
  const config = path.join(dir, file);
  await fs.writeFile(config, source);
  const server = await startDevServer({
    config,
    provider: new ScriptedProvider([]),
    store: new FileRunStore({ dir: path.join(dir, `runs-${file}`) }),
    port: 0,
  });
  servers.push(server);
  return server;
}

describe('--config', () => {
  it('serves the Tools of an exported configuration and runs them with its Activities', async () => {
    const server = await serve(
      'config.js',
      `module.exports = { tools: [${ECHO_TOOL}], activities: [{ echo: (params) => ({ said: params.word }) }] };`,
    );
    const tools = (await http(server.url, '/api/tools')).json.tools;
    expect(tools).toEqual([
      {
        name: 'echo',
        description: 'Echoes a word.',
        kind: 'explicit',
        source: 'container',
        agent: false,
      },
    ]);
    const started = await http(server.url, '/api/runs', {
      method: 'POST',
      body: { tool: 'echo', params: { word: 'hi' } },
    });
    const events = await readEventStream(server.url, `/api/runs/${started.json.runId}/events`);
    expect(events.find((item) => item.data.type === 'call-end')!.data.output).toEqual({
      said: 'hi',
    });
  });

  it('takes an exported container (default export) with its own provider', async () => {
    const server = await serve(
      'container.js',
      `const { createContainer, OfflineProvider } = require('ideact');
       exports.default = createContainer({ tools: [${ECHO_TOOL}], provider: new OfflineProvider() });`,
    );
    const info = (await http(server.url, '/api/info')).json;
    expect(info.provider).toMatchObject({ name: 'offline', offline: true });
    expect((await http(server.url, '/api/tools')).json.tools[0]).toMatchObject({
      name: 'echo',
      kind: 'latent',
    });
  });

  it('refuses a module that exports neither, or does not load, naming the file', async () => {
    const empty = path.join(dir, 'empty.js');
    await fs.writeFile(empty, 'module.exports = { nothing: true };');
    await expect(startDevServer({ config: empty, port: 0 })).rejects.toThrow(PlaygroundConfigError);
    await expect(startDevServer({ config: empty, port: 0 })).rejects.toThrow(
      /empty\.js cannot be used: it exports neither a container nor a configuration/,
    );
    const missing = path.join(dir, 'missing.js');
    await expect(startDevServer({ config: missing, port: 0 })).rejects.toMatchObject({
      code: 'PLAYGROUND_CONFIG',
      file: missing,
    });
  });
});
