import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createAgent, generateFromIdeas, type ProviderRequest, type ToolClass } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { REPO_ROOT } from '../support/compile-typescript';

jest.mock('prettier', () => jest.requireActual('./prettier-standalone'));

/**
 * Issue 17 item 2 through codegen (R-OUT-4, R-MOD-5): an agent Idea whose tools fix `_outputMethod`
 * (push) or leave it to the model (set | concat) is generated into a Tool class; calling that class
 * runs the nested agent, whose Vessel hides the fixed method and offers the choice, and whose writes
 * fold by their methods before its next turn.
 */
const SCRIBE = {
  name: 'scribe',
  description: 'Writes lines about a topic.',
  context: [
    { type: 'system', text: 'You are a scribe.' },
    {
      type: 'input',
      input: { topic: 'rain' },
      schema: {
        type: 'object',
        properties: { topic: { type: 'string' } },
        required: ['topic'],
      },
    },
    { type: 'state', state: { lines: ['title'] } },
  ],
  schema: {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              description: 'Write one line.',
              properties: {
                _tool: { const: 'line' },
                _output: { type: 'string' },
                _outputPath: { const: 'state.lines' },
                _outputMethod: { const: 'push' },
              },
              required: ['_tool'],
            },
            {
              type: 'object',
              description: 'Keep notes.',
              properties: {
                _tool: { const: 'note' },
                _output: { type: 'array', items: { type: 'string' } },
                _outputPath: { type: 'string' },
                _outputMethod: { enum: ['set', 'concat'] },
              },
              required: ['_tool'],
            },
          ],
        },
      },
      output: {
        anyOf: [
          {
            type: 'object',
            properties: { lines: { type: 'array', items: { type: 'string' } } },
            required: ['lines'],
          },
          { type: 'null' },
        ],
      },
    },
    required: ['calls', 'output'],
  },
};

function textOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** The scribe writes a line and notes, then another line, then answers with the State it sees. */
function scribeScript(request: ProviderRequest): unknown {
  const text = textOf(request);
  const turns = (text.match(/## Result of line/g) ?? []).length;
  if (turns === 0) {
    return {
      calls: [
        { _tool: 'line', _output: 'drip' },
        { _tool: 'note', _output: ['a'], _outputPath: 'notes' },
      ],
      output: null,
    };
  }
  if (turns === 1) {
    return {
      calls: [
        { _tool: 'line', _output: 'drop' },
        { _tool: 'note', _output: ['b', 'c'], _outputPath: 'notes', _outputMethod: 'concat' },
      ],
      output: null,
    };
  }
  const data = request.messages.find((message) => message.content.startsWith('## Data: ¶state'));
  const state = JSON.parse(data!.content.split('\n').slice(1).join('\n')) as {
    lines: string[];
    notes: string[];
  };
  return { calls: [], output: { lines: [...state.lines, ...state.notes] } };
}

describe('codegen of an agent Idea with output methods (R-OUT-4, R-MOD-5)', () => {
  let scratch: string;
  beforeAll(async () => {
    await fs.mkdir(path.join(REPO_ROOT, '.ideact-tmp'), { recursive: true });
    scratch = await fs.mkdtemp(path.join(REPO_ROOT, '.ideact-tmp', 'output-method-'));
    await fs.writeFile(path.join(scratch, 'scribe.idea.json'), JSON.stringify(SCRIBE), 'utf8');
  });
  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });

  it('R-OUT-4 the generated class runs the Idea; its tools write with their fixed or chosen method', async () => {
    const result = await generateFromIdeas([path.join(scratch, 'scribe.idea.json')], {
      outDir: scratch,
      moduleRoot: scratch,
    });
    const outFile = result.files[0]!.outFile;
    const generated = (await import(outFile)) as Record<string, ToolClass>;
    const Scribe = generated[result.files[0]!.className]!;

    const provider = new ScriptedProvider(scribeScript);
    const agent = createAgent({ tools: [Scribe], provider, moduleRoot: scratch });
    const output = await agent.call(Scribe as never, { topic: 'rain' } as never);

    // push kept the Idea's own State line; concat appended to the notes the first set wrote.
    expect(output).toEqual({ lines: ['title', 'drip', 'drop', 'a', 'b', 'c'] });
    expect(provider.requests).toHaveLength(3);
    for (const request of provider.requests) {
      const schema = JSON.stringify(request.schema);
      expect(schema).toContain('"_outputMethod":{"enum":["set","concat"]');
      expect(schema).not.toContain('push');
      expect(schema).not.toContain('state.lines');
    }
  });
});
