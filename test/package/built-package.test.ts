import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IsString } from 'class-validator';

/**
 * The executor, decorators, container and agent loop work when imported from the BUILT package
 * (`npm test` builds first). Codegen and the CLI are run from dist/ by test/cli. dist/ is loaded at
 * run time.
 */
const ROOT = join(__dirname, '..', '..');

function load<T>(relative: string): T {
  const file = join(ROOT, 'dist', relative);
  if (!existsSync(file))
    throw new Error(`${file} is missing: run "npm run build" (npm test does).`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as T;
}

const built = load<typeof import('ideact')>('index.js');
const testing = load<typeof import('ideact/testing')>('testing/index.js');

describe('the built package (dist/)', () => {
  beforeEach(() => built.getMetadataStorage().reset());

  it('R-MOD-1, R-CALL-3: decorated tools in a container; an anonymous module sees only its imports', async () => {
    @built.Tool({ description: 'Summarize the user input.' })
    @built.Module('anonymous')
    @built.Imports(['input'])
    @built.Output({
      type: 'object',
      properties: { summary: { type: 'string' } },
      required: ['summary'],
    })
    class Summarize {
      @IsString()
      focus!: string;
    }
    const provider = new testing.ScriptedProvider([{ summary: 'short' }]);
    const container = built.createContainer({ tools: [Summarize], provider });
    try {
      const messages = await container
        .get(built.Executor)
        .call({ _tool: 'summarize', focus: 'dates' }, [
          { type: 'text', text: 'SECRET-TASK' },
          { type: 'input', input: { text: 'the user text' } },
        ]);
      expect(messages[0]).toMatchObject({ type: 'result', output: { summary: 'short' } });
      const seen = JSON.stringify(provider.requests);
      expect(seen).toContain('the user text');
      expect(seen).toContain('dates');
      expect(seen).not.toContain('SECRET-TASK');
    } finally {
      built.disposeContainer(container);
    }
  });

  it('R-LOOP-3: createAgent runs the music example Ideas to the final output', async () => {
    const file = join(ROOT, 'examples', 'music', 'ideas', 'producer.json');
    const idea = built.parseIdea(JSON.parse(readFileSync(file, 'utf8')), file);
    const parts = built.vesselIdeaParts(idea)!;
    const provider = new testing.ScriptedProvider((request) => {
      const system = request.messages[0]?.content ?? '';
      if (!system.startsWith('You are a record producer'))
        throw new Error('only the producer runs here');
      return { calls: [], output: { title: 'EP', tracks: [], notes: 'none' } };
    });
    const agent = built.createAgent({
      tools: parts.tools,
      provider,
      moduleRoot: join(ROOT, 'examples', 'music', 'ideas'),
    });
    const result = await agent.run({ context: parts.context, output: parts.output, maxTurns: 2 });
    expect(result.stopReason).toBe('output');
    expect(result.output).toEqual({ title: 'EP', tracks: [], notes: 'none' });
  });
});
