import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../support/chat-completions-server';

/**
 * Providers and the request pipeline work when imported from the BUILT package (`npm test` builds
 * first): the "done when" criterion. Loads dist/ at run time so this file type-checks first.
 */
const distRoot = join(__dirname, '..', '..', 'dist');

function load<T>(relative: string): T {
  const file = join(distRoot, relative);
  if (!existsSync(file))
    throw new Error(`${file} is missing: run "npm run build" first (npm test does it).`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as T;
}

describe('providers from the built package (dist/)', () => {
  const built = load<typeof import('ideact')>('index.js');
  const testing = load<typeof import('ideact/testing')>(join('testing', 'index.js'));
  let server: ChatCompletionsServer;
  afterAll(async () => {
    await server?.close();
  });

  it('OpenAIProvider + runRequest: strict request, invalid JSON repaired, usage summed', async () => {
    server = await startChatCompletionsServer([
      { text: '{"city": ' },
      {
        json: { city: 'Paris', note: null },
        usage: { promptTokens: 20, completionTokens: 5, cachedTokens: 8 },
      },
    ]);
    const provider = new built.OpenAIProvider({
      baseURL: server.baseURL,
      model: 'm',
      env: {},
    });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, note: { type: 'string' } },
      required: ['city'],
    };
    const result = await built.runRequest(
      { context: [{ type: 'text', text: 'Where?' }], schema },
      { provider },
    );
    expect(result.solution).toEqual({ city: 'Paris' });
    expect(result.repairs).toBe(1);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 10, cachedTokens: 8 });
    expect(server.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'solution', schema: built.toStrictSchema(schema), strict: true },
    });
  });

  it('ScriptedProvider from ideact/testing, OfflineProvider, and createDefaultProvider without a key', async () => {
    expect(testing.ScriptedProvider).toBe(built.ScriptedProvider);
    const scripted = new testing.ScriptedProvider([{ ok: true }]);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    expect(await built.request({ context: [], schema }, { provider: scripted })).toEqual({
      ok: true,
    });
    scripted.assertComplete();
    expect(() => built.createDefaultProvider({})).toThrow(
      expect.objectContaining({ code: 'MISSING_PROVIDER' }) as Error,
    );
    const offline = new built.OfflineProvider();
    expect(offline.name).toBe('offline (not a model)');
    expect(await built.request({ context: [], schema }, { provider: offline })).toEqual({
      ok: false,
    });
  });
});
