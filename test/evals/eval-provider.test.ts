import { promises as fs } from 'node:fs';
import { runEval, UnknownModelProviderError, type EvalSpec } from 'ideact';
import { startChatCompletionsServer } from '../support/chat-completions-server';
import { capitalFolder } from './eval-fixtures';

/**
 * Issue 33 with issue 30: an eval's model is chosen as every entry point chooses one
 * (`chooseProvider`): `openai:<model>` reaches an OpenAI-compatible server as `<model>`, an unknown
 * prefix is an UnknownModelProviderError before any case runs.
 */
let dir: string;
beforeEach(async () => {
  dir = await capitalFolder();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const spec = (model: string): EvalSpec => ({
  name: 'capitals',
  target: { idea: 'capital.json' },
  model,
  cases: [{ name: 'norway', input: { country: 'Norway' }, expected: { capital: 'Oslo' } }],
  scorers: [{ type: 'equals', path: 'capital' }],
});

describe('the eval model by name (issue 33, chooseProvider of issue 30)', () => {
  it('"openai:capital-model" runs on the OpenAI-compatible server of OPENAI_BASE_URL, asking for "capital-model"', async () => {
    const server = await startChatCompletionsServer(() => ({
      json: { calls: [], output: { capital: 'Oslo' } },
    }));
    try {
      const result = await runEval(spec('openai:capital-model'), {
        baseDir: dir,
        env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-test' },
      });
      expect(result.cases[0]?.trials[0]?.scores[0]).toMatchObject({ score: 1 });
      expect(result.passed).toBe(true);
      expect(result.model).toBe('openai:capital-model');
      expect(server.requests.length).toBeGreaterThan(0);
      for (const request of server.requests) expect(request.body.model).toBe('capital-model');
    } finally {
      await server.close();
    }
  });

  it('an unknown prefix is an UnknownModelProviderError naming it, before any case runs', async () => {
    const failure = await runEval(spec('nowhere:model-1'), { baseDir: dir, env: {} }).catch(
      (error: unknown) => error,
    );
    expect(UnknownModelProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ prefix: 'nowhere', model: 'nowhere:model-1' });
  });
});
