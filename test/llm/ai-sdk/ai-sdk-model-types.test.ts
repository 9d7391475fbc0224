import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { LanguageModelV3 as LanguageModelV3Of4, LanguageModelV4 } from 'ai-sdk-provider-v4';
import type { createAnthropic as createAnthropicV4 } from 'ai-sdk-anthropic-v4';
import type { createGoogleGenerativeAI as createGoogleV4 } from 'ai-sdk-google-v4';
import type { createOpenAICompatible as createOpenAICompatibleV4 } from 'ai-sdk-openai-compatible-v3';
import { expectTypeOf } from 'expect-type';
import { aiSdkProvider, UnsupportedModelError, type AiSdkLanguageModel } from 'ideact';

/**
 * Issue 30 item 1: ideact depends on no AI SDK package; its structural `AiSdkLanguageModel` accepts
 * the real specification types of both majors (`LanguageModelV3` of ai@6's `@ai-sdk/provider`,
 * `LanguageModelV4` of ai@7's) and the models of the real provider packages. Checked by the type
 * checker (`npm run typecheck` covers test/), and at run time for the v3 packages.
 */
describe('AiSdkLanguageModel fits the AI SDK specification (issue 30 item 1)', () => {
  it('accepts LanguageModelV3 and LanguageModelV4 and the provider packages’ models, both majors', () => {
    expectTypeOf<LanguageModelV3>().toMatchTypeOf<AiSdkLanguageModel>();
    expectTypeOf<LanguageModelV3Of4>().toMatchTypeOf<AiSdkLanguageModel>();
    expectTypeOf<LanguageModelV4>().toMatchTypeOf<AiSdkLanguageModel>();
    expectTypeOf<
      ReturnType<ReturnType<typeof createAnthropicV4>>
    >().toMatchTypeOf<AiSdkLanguageModel>();
    expectTypeOf<
      ReturnType<ReturnType<typeof createGoogleV4>>
    >().toMatchTypeOf<AiSdkLanguageModel>();
    expectTypeOf<
      ReturnType<ReturnType<typeof createOpenAICompatibleV4>>
    >().toMatchTypeOf<AiSdkLanguageModel>();

    const models = [
      createAnthropic({ apiKey: 'k' })('claude-sonnet-4-5'),
      createGoogleGenerativeAI({ apiKey: 'k' })('gemini-2.5-flash'),
      createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:1/v1' })('llama3.1'),
    ];
    expect(models.map((model) => aiSdkProvider(model).name)).toEqual([
      'anthropic:claude-sonnet-4-5',
      'google:gemini-2.5-flash',
      'local:llama3.1',
    ]);
    expect(models.map((model) => model.specificationVersion)).toEqual(['v3', 'v3', 'v3']);
  });

  it('rejects a model of another specification version (ai@5’s v2) with a typed error saying what to upgrade', () => {
    const old = {
      specificationVersion: 'v2',
      provider: 'anthropic.messages',
      modelId: 'claude-3-5-sonnet',
      doGenerate: () => Promise.reject(new Error('unused')),
      doStream: () => Promise.reject(new Error('unused')),
    };
    const error = (() => {
      try {
        aiSdkProvider(old);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(UnsupportedModelError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"v2"');
    expect((error as Error).message).toContain('npm install @ai-sdk/<provider>@latest');
  });
});
