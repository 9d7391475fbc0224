import type { ChatMessage } from 'ideact';
import { toAiSdkPrompt } from '../../../src/llm/ai-sdk/ai-sdk-prompt';

/** Issue 30 items 1 and 3: ideact's chat messages as the AI SDK prompt, per family. */
const messages: ChatMessage[] = [
  { role: 'system', content: 'Rules.' },
  { role: 'user', content: 'Task.' },
  {
    role: 'assistant',
    content: '{"calls":[]}',
    reasoning: [{ text: 'Think.', providerMetadata: { anthropic: { signature: 's' } } }],
  },
  { role: 'system', content: 'Late rule.' },
  { role: 'user', content: '' },
  { role: 'user', content: 'Result.' },
];
const mark = { anthropic: { cacheControl: { type: 'ephemeral' } } };

describe('toAiSdkPrompt (issue 30)', () => {
  it('Anthropic/Gemini: system messages first, reasoning given back, cache marks on the breakpoints, empty ones left out', () => {
    const prompt = toAiSdkPrompt(messages, {
      hoistSystem: true,
      sendReasoning: true,
      cacheBreakpoints: [0, 5],
      cacheMark: mark,
    });
    expect(prompt).toEqual([
      { role: 'system', content: 'Rules.', providerOptions: mark },
      { role: 'system', content: 'Late rule.' },
      { role: 'user', content: [{ type: 'text', text: 'Task.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Think.', providerOptions: { anthropic: { signature: 's' } } },
          { type: 'text', text: '{"calls":[]}' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Result.' }], providerOptions: mark },
    ]);
  });

  it('other families: order kept, no reasoning sent, no cache marks, the schema instruction last', () => {
    const prompt = toAiSdkPrompt(messages, {
      hoistSystem: false,
      sendReasoning: false,
      cacheBreakpoints: [0, 5],
      instruction: { role: 'system', content: 'Reply with JSON.' },
    });
    expect(prompt.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'system',
      'user',
      'system',
    ]);
    expect(prompt[2]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '{"calls":[]}' }],
    });
    expect(prompt.some((message) => message.providerOptions !== undefined)).toBe(false);
    expect(prompt[5]).toEqual({ role: 'system', content: 'Reply with JSON.' });
  });
});
