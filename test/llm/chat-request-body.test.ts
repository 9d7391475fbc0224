import { buildChatRequestBody, schemaNameFor } from '../../src/llm/openai/chat-request-body';

describe('Chat Completions request body', () => {
  const request = {
    messages: [{ role: 'user' as const, content: 'hi' }],
    schema: { type: 'object' },
  };

  it('OpenAI gets max_completion_tokens', () => {
    const body = buildChatRequestBody(request, {
      model: 'gpt-4o-mini',
      mode: 'json_schema',
      maxOutputTokens: 100,
      maxTokensField: 'max_completion_tokens',
    });
    expect(body.max_completion_tokens).toBe(100);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('schema names are made to fit OpenAI’s ^[a-zA-Z0-9_-]{1,64}$', () => {
    expect(schemaNameFor(undefined)).toBe('solution');
    expect(schemaNameFor('trip plan/v2')).toBe('trip_plan_v2');
    expect(schemaNameFor('x'.repeat(80))).toHaveLength(64);
    expect(schemaNameFor('¶¶')).toBe('_');
  });

  it('does not mutate the request messages in json_object mode', () => {
    buildChatRequestBody(request, { model: 'm', mode: 'json_object' });
    expect(request.messages).toHaveLength(1);
  });
});
