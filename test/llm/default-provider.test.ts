import { MissingProviderError, OpenAIProvider, createDefaultProvider } from 'ideact';

/** Issue 14 item 3: the default provider comes from the environment or fails loudly, never offline. */
describe('createDefaultProvider', () => {
  it('throws MissingProviderError (not an offline stand-in) with no key and no base URL', () => {
    for (const env of [{}, { OPENAI_API_KEY: '  ', OPENAI_BASE_URL: '' }]) {
      let caught: unknown;
      try {
        createDefaultProvider(env);
      } catch (error) {
        caught = error;
      }
      expect(MissingProviderError.isInstance(caught)).toBe(true);
      const error = caught as MissingProviderError;
      expect(error.code).toBe('MISSING_PROVIDER');
      expect(error.fault).toBe('configuration');
      expect(error.message).toContain('createDefaultProvider()');
      expect(error.message).toContain('Potential solutions:');
      expect(error.message).toContain('OPENAI_API_KEY');
      expect(error.message).toContain('provider: new OpenAIProvider(');
      expect(error.message).toContain('provider: new OfflineProvider()');
    }
  });

  it('is OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL is set, reading the model from IDEACT_MODEL', () => {
    const withKey = createDefaultProvider({ OPENAI_API_KEY: 'sk-x', IDEACT_MODEL: 'gpt-4.1' });
    expect(withKey).toBeInstanceOf(OpenAIProvider);
    expect(withKey.name).toBe('openai:gpt-4.1');
    const local = createDefaultProvider({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
    }) as OpenAIProvider;
    expect(local).toBeInstanceOf(OpenAIProvider);
    expect(local.baseURL).toBe('http://127.0.0.1:11434/v1');
  });
});
