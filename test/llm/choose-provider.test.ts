import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  AiSdkProvider,
  chooseProvider,
  ConfigurationError,
  createDefaultProvider,
  hasProviderEnvironment,
  MissingApiKeyError,
  ModelPackageMissingError,
  OfflineProvider,
  OpenAIProvider,
  UnknownModelProviderError,
} from 'ideact';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-messages-server';
import { startGeminiServer, type GeminiServer } from '../support/gemini-server';

/**
 * Issue 30 item 4: one function chooses the provider from `--provider`, `--model` and the environment
 * (the CLI, workers, MCP serve and the playground call it). A prefix names an AI SDK package resolved
 * from the user's project; today's OpenAI choices are unchanged.
 */
function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

let projectDir: string;
beforeAll(async () => {
  projectDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-project-'));
});
afterAll(async () => {
  await fs.rm(projectDir, { recursive: true, force: true });
});

describe('chooseProvider (issue 30 item 4)', () => {
  it('anthropic:<model> → the installed @ai-sdk/anthropic through aiSdkProvider; the run carries no model of its own', () => {
    const choice = chooseProvider({
      model: 'anthropic:claude-sonnet-4-5',
      env: { ANTHROPIC_API_KEY: 'k' },
      projectDir,
    });
    expect(choice.provider).toBeInstanceOf(AiSdkProvider);
    expect(choice.provider.name).toBe('anthropic:claude-sonnet-4-5');
    expect(choice.model).toBeUndefined();
    expect(choice.offlineFallback).toBe(false);
  });

  it('a known prefix whose package is not installed → ModelPackageMissingError naming it', () => {
    const error = caught(() =>
      chooseProvider({ model: 'groq:llama-3.3-70b', env: { GROQ_API_KEY: 'k' }, projectDir }),
    );
    expect(ModelPackageMissingError.isInstance(error)).toBe(true);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ packageName: '@ai-sdk/groq', model: 'groq:llama-3.3-70b' });
    expect((error as Error).message).toContain('npm i @ai-sdk/groq');
  });

  it('an unknown prefix → UnknownModelProviderError; with OPENAI_BASE_URL it is a model name of that server (Ollama llama3:8b)', () => {
    const error = caught(() => chooseProvider({ model: 'llama3:8b', env: {} }));
    expect(UnknownModelProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ prefix: 'llama3' });
    expect((error as UnknownModelProviderError).known).toEqual(
      expect.arrayContaining(['openai', 'anthropic', 'google']),
    );

    const ollama = chooseProvider({
      model: 'llama3:8b',
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
    });
    expect(ollama.provider).toBeInstanceOf(OpenAIProvider);
    expect((ollama.provider as OpenAIProvider).model).toBe('llama3:8b');
    expect(ollama.model).toBe('llama3:8b');
    // A dotted name is never a prefix.
    const dotted = chooseProvider({
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', IDEACT_MODEL: 'llama3.1:8b' },
    });
    expect((dotted.provider as OpenAIProvider).model).toBe('llama3.1:8b');
    expect(dotted.model).toBeUndefined();
  });

  it('today’s OpenAI options are unchanged; openai:<model> is the same provider', () => {
    const plain = chooseProvider({ model: 'gpt-4.1', env: { OPENAI_API_KEY: 'sk' } });
    expect(plain.provider.name).toBe('openai:gpt-4.1');
    expect(plain.model).toBe('gpt-4.1');
    const prefixed = chooseProvider({ model: 'openai:gpt-4.1', env: { OPENAI_API_KEY: 'sk' } });
    expect(prefixed.provider.name).toBe('openai:gpt-4.1');
    expect(prefixed.model).toBe('gpt-4.1');
    expect(
      chooseProvider({ env: { OPENAI_API_KEY: 'sk', IDEACT_MODEL: 'openai:gpt-4o' } }).provider
        .name,
    ).toBe('openai:gpt-4o');
    expect(
      MissingApiKeyError.isInstance(caught(() => chooseProvider({ provider: 'openai', env: {} }))),
    ).toBe(true);
    expect(
      chooseProvider({ provider: 'offline', env: { OPENAI_API_KEY: 'sk' } }).provider,
    ).toBeInstanceOf(OfflineProvider);
    const nothing = chooseProvider({ env: {} });
    expect(nothing.provider).toBeInstanceOf(OfflineProvider);
    expect(nothing.offlineFallback).toBe(true);
  });

  it('a known prefix without its key → MissingApiKeyError naming the variable', () => {
    const error = caught(() => chooseProvider({ model: 'anthropic:claude-sonnet-4-5', env: {} }));
    expect(MissingApiKeyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ variable: 'ANTHROPIC_API_KEY' });
  });
});

describe('IDEACT_MODEL with a prefix configures the library too (issue 30 item 4)', () => {
  let anthropic: AnthropicServer;
  let gemini: GeminiServer;
  beforeAll(async () => {
    anthropic = await startAnthropicServer();
    gemini = await startGeminiServer();
  });
  afterAll(async () => {
    await anthropic.close();
    await gemini.close();
  });

  it('createDefaultProvider loads the package on first use with its base URL; a request naming another prefixed model gets that one', async () => {
    const env = {
      IDEACT_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'a-key',
      ANTHROPIC_BASE_URL: anthropic.baseURL,
      GOOGLE_GENERATIVE_AI_API_KEY: 'g-key',
      GOOGLE_GENERATIVE_AI_BASE_URL: gemini.baseURL,
    };
    expect(hasProviderEnvironment(env)).toBe(true);
    expect(hasProviderEnvironment({ IDEACT_MODEL: 'gpt-4.1' })).toBe(false);
    const provider = createDefaultProvider(env);
    expect(provider.name).toBe('anthropic:claude-sonnet-4-5');
    const request = {
      messages: [{ role: 'user' as const, content: 'A city?' }],
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    anthropic.push({ json: { city: 'Oslo' } });
    expect((await provider.generate(request)).options).toEqual([{ city: 'Oslo' }]);
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe('a-key');
    // A module Idea's `model: google:gemini-2.5-flash` reaches Gemini, not Anthropic (DESIGN §8 settings).
    gemini.push({ json: { city: 'Rome' } });
    expect(
      (await provider.generate({ ...request, model: 'google:gemini-2.5-flash' })).options,
    ).toEqual([{ city: 'Rome' }]);
    expect(gemini.requests[0]!.path).toContain('/models/gemini-2.5-flash:generateContent');
    expect(anthropic.requests).toHaveLength(1);
  });
});
