import {
  InvalidSolutionError,
  OpenAIProvider,
  UnparsedOption,
  runRequest,
  type JSONSchema,
  type Message,
} from 'ideact';
import { serversForThisFile, type ChatCompletionsServer } from '../support/chat-completions-server';

/**
 * Issue 27 item 11 (docs/providers.md "Structured output"): in `json_schema` mode the reply must be
 * the JSON alone (a server enforcing the schema writes nothing else), so prose after the JSON or a
 * Markdown fence is repaired (R-REQ-3); `json_object` mode tolerates both. Real `openai` client
 * against a local Chat Completions server, whole and streamed.
 */

const schema: JSONSchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const context: Message[] = [{ type: 'text', text: 'Name a city.' }];

const serve = serversForThisFile();

function provider(server: ChatCompletionsServer, mode: 'json_schema' | 'json_object') {
  return new OpenAIProvider({
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    model: 'test-model',
    mode,
    maxRetries: 0,
    env: {},
  });
}

const withProse = '{"city":"Oslo"}\nHope this helps!';
const fenced = '```json\n{"city":"Oslo"}\n```';

describe.each([
  ['whole', false],
  ['streamed', true],
])('OpenAIProvider reply text, %s (issue 27 item 11)', (_label, streamed) => {
  /** A request through the pipeline; `onDelta` makes it stream from the server. */
  async function ask(server: ChatCompletionsServer, mode: 'json_schema' | 'json_object') {
    return runRequest(
      { context, schema },
      {
        provider: provider(server, mode),
        ...(streamed ? { onDelta: () => undefined } : {}),
      },
    );
  }

  it('json_schema mode: prose after the JSON is sent back for repair, naming what follows the JSON', async () => {
    const server = await serve([{ text: withProse }, { text: '{"city":"Oslo"}' }]);
    const result = await ask(server, 'json_schema');
    expect(result.solution).toEqual({ city: 'Oslo' });
    expect(result.repairs).toBe(1);
    expect(server.requests[0]!.body.stream === true).toBe(streamed);
    const messages = server.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: withProse });
    expect(messages.at(-1)!.role).toBe('user');
    // the JSON parser's words: the first character after the JSON (after the newline) is at 16
    // (Node 22 and later add "(line 2 column 1)")
    expect(messages.at(-1)!.content).toMatch(
      /^\(root\): is not valid JSON \(.*position 16( \(line 2 column 1\))?\)$/m,
    );
  });

  it('json_schema mode: a fenced reply is repaired too; when repairs run out, InvalidSolutionError keeps the text', async () => {
    const server = await serve([{ text: fenced }]);
    let caught: unknown;
    try {
      await runRequest(
        { context, schema },
        {
          provider: provider(server, 'json_schema'),
          maxRepairs: 0,
          ...(streamed ? { onDelta: () => undefined } : {}),
        },
      );
    } catch (error) {
      caught = error;
    }
    expect(InvalidSolutionError.isInstance(caught)).toBe(true);
    const error = caught as InvalidSolutionError;
    expect(error.rawText).toBe(fenced);
    expect(error.issues).toEqual([
      { path: '', message: expect.stringMatching(/^is not valid JSON \(Unexpected token '`'/) },
    ]);
  });

  it('json_object mode tolerates prose after the JSON and a fence (no repair)', async () => {
    const server = await serve([{ text: withProse }, { text: fenced }]);
    for (let index = 0; index < 2; index++) {
      const result = await ask(server, 'json_object');
      expect(result.solution).toEqual({ city: 'Oslo' });
      expect(result.repairs).toBe(0);
    }
    expect(server.requests).toHaveLength(2);
  });
});

describe('OpenAIProvider.generate in json_schema mode (issue 27 item 11)', () => {
  it('returns prose after the JSON as an UnparsedOption with the raw text', async () => {
    const server = await serve([{ text: withProse }]);
    const response = await provider(server, 'json_schema').generate({
      messages: [{ role: 'user', content: 'Name a city.' }],
      schema,
    });
    expect(response.options).toHaveLength(1);
    const option = response.options[0];
    expect(UnparsedOption.isInstance(option)).toBe(true);
    expect((option as UnparsedOption).rawText).toBe(withProse);
    expect((option as UnparsedOption).jsonPath).toBeUndefined();
  });
});
