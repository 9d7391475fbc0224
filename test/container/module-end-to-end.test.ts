import { IsString } from 'class-validator';
import {
  createContainer,
  Describe,
  disposeContainer,
  Executor,
  getMetadataStorage,
  Imports,
  Module,
  Output,
  Tool,
  type Message,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

beforeEach(() => getMetadataStorage().reset());

describe("a decorated @Module('anonymous') + @Imports(['input']) tool, end to end", () => {
  it('R-MOD-1 R-MOD-2 runs one clean-room sub-request through container.get(Executor): only the imported input and the params reach the provider', async () => {
    class Summary {
      @Describe('One sentence')
      @IsString()
      summary!: string;
    }

    @Tool({ description: 'Summarizes a topic from the user input' })
    @Module('anonymous')
    @Imports(['input'])
    @Output(Summary)
    class Summarize {
      @Describe('What to summarize')
      @IsString()
      topic!: string;
    }

    const provider = new ScriptedProvider([{ summary: 'Cats sleep a lot.' }]);
    const container = createContainer({ tools: [Summarize], provider });
    try {
      const context: Message[] = [
        { type: 'system', text: 'PARENT SYSTEM PROMPT' },
        { type: 'text', text: 'PARENT CHAT TEXT' },
        { type: 'input', input: { audience: 'children' } },
        { type: 'state', state: { secret: 'PARENT STATE' } },
      ];
      const messages = await container
        .get(Executor)
        .call({ _tool: 'summarize', topic: 'cats' }, context);

      expect(messages).toEqual([
        {
          type: 'result',
          call: { _tool: 'summarize', topic: 'cats' },
          output: { summary: 'Cats sleep a lot.' },
        },
      ]);
      provider.assertComplete();
      expect(provider.requests).toHaveLength(1);
      const [request] = provider.requests;
      // The sub-request's schema is the tool's _output (R-MOD-2) …
      expect(request!.schema).toMatchObject({
        type: 'object',
        properties: { summary: { type: 'string', description: 'One sentence' } },
        required: ['summary'],
      });
      // … and its context is the Tool's brief (its own description), the imported input, then the
      // Call's params as a message of their own, last (R-MOD-1, R-SCOPE-3; issue 27 item 10): the
      // caller's input is `¶callerInput`, never merged into the module's own `¶input`.
      expect(request!.messages.map((message) => message.role)).toEqual(['system', 'user', 'user']);
      expect(request!.messages[0]!.content).toBe(
        '## Tool: summarize\nSummarizes a topic from the user input',
      );
      const [, imported, params] = request!.messages.map((message) => String(message.content));
      expect(imported).toContain('## Data: ¶callerInput');
      expect(imported).toContain('"audience": "children"');
      expect(imported).not.toContain('topic');
      expect(params).toMatch(/^## Data: ¶input\n/);
      expect(params).toContain('"topic": "cats"');
      expect(params).not.toContain('audience');
      const sent = request!.messages.map((message) => message.content).join('\n');
      expect(sent).not.toContain('PARENT SYSTEM PROMPT');
      expect(sent).not.toContain('PARENT CHAT TEXT');
      expect(sent).not.toContain('PARENT STATE');
    } finally {
      disposeContainer(container);
    }
  });
});
