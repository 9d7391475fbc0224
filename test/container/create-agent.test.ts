import {
  ContainerConfigurationError,
  Executor,
  MODULE_RUNNER,
  MissingProviderError,
  OfflineProvider,
  OpenAIProvider,
  PROVIDER,
  agentFromContainer,
  createAgent,
  createContainer,
  disposeContainer,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

const echo: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'echo' }, text: { type: 'string' } },
  required: ['_tool', 'text'],
};

describe('agentFromContainer (R-LOOP-2, R-MOD-5)', () => {
  it('installs the nested-agent runner in the container Executor through MODULE_RUNNER', () => {
    const container = createContainer({
      tools: [echo],
      activities: [{ echo: (params) => params.text }],
      provider: new ScriptedProvider([]),
    });
    try {
      agentFromContainer(container);
      expect(container.get(Executor).moduleRunner).toBe(container.get(MODULE_RUNNER));
    } finally {
      disposeContainer(container);
    }
  });

  it('fails with a fix when the container already built its Executor (nested agents would be lost)', () => {
    const container = createContainer({
      tools: [echo],
      activities: [{ echo: (params) => params.text }],
      provider: new ScriptedProvider([]),
    });
    try {
      container.get(Executor);
      expect(() => agentFromContainer(container)).toThrow(ContainerConfigurationError);
      expect(() => agentFromContainer(container)).toThrow(
        /before anything calls container.get\(Executor\)/,
      );
    } finally {
      disposeContainer(container);
    }
  });
});

describe('no silent offline fallback (issue 14 item 3)', () => {
  const saved = { key: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL };
  beforeEach(() => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });
  afterAll(() => {
    for (const [name, value] of [
      ['OPENAI_API_KEY', saved.key],
      ['OPENAI_BASE_URL', saved.baseURL],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  function missingProvider(action: () => unknown): MissingProviderError {
    try {
      action();
    } catch (error) {
      if (MissingProviderError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('expected MissingProviderError, nothing was thrown');
  }

  it('createAgent and createContainer without provider and without OPENAI_API_KEY throw MissingProviderError at once', () => {
    const config = {
      tools: [echo],
      activities: [{ echo: (params: Record<string, unknown>) => params.text }],
    };
    for (const create of [() => createAgent(config), () => createContainer(config)]) {
      const error = missingProvider(create);
      expect(error.code).toBe('MISSING_PROVIDER');
      expect(error.fault).toBe('configuration');
      expect(error.message).toContain('createAgent() / createContainer()');
      expect(error.message).toContain('OPENAI_API_KEY');
      expect(error.message).toContain('provider: new OpenAIProvider(');
      expect(error.message).toContain('provider: new OfflineProvider()');
    }
  });

  it('with OPENAI_API_KEY in the environment the container uses an OpenAIProvider (no request made)', () => {
    process.env.OPENAI_API_KEY = 'sk-test-not-used';
    const container = createContainer({ tools: [echo] });
    try {
      expect(container.get(PROVIDER)).toBeInstanceOf(OpenAIProvider);
      expect(() => createAgent({ tools: [echo] })).not.toThrow();
    } finally {
      disposeContainer(container);
    }
  });

  it('an explicit OfflineProvider is used as given', () => {
    const provider = new OfflineProvider();
    const container = createContainer({ tools: [echo], provider });
    try {
      expect(container.get(PROVIDER)).toBe(provider);
    } finally {
      disposeContainer(container);
    }
  });
});
