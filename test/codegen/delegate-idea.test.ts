import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  createAgent,
  generateFromIdeas,
  getMetadataStorage,
  toolSchema,
  type ProviderRequest,
  type ToolClass,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { REPO_ROOT } from '../support/compile-typescript';

jest.mock('prettier', () => jest.requireActual('./prettier-standalone'));

/**
 * R-DEL-1: codegen reads an Idea written in the newer vocabulary (`_delegate`, `_scopes`) and emits
 * the decorator of that vocabulary (`@Delegate`); the generated class runs like its `_module` twin.
 */
const FIXTURES = path.join(__dirname, 'fixtures');

function textOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** The band leader calls the lyricist and the tempo tool, then answers from the results it saw. */
function bandScript(request: ProviderRequest): unknown {
  const text = textOf(request);
  if (text.includes('You are a lyricist')) return { title: 'Rain', verses: ['drip', 'drop'] };
  if (!text.includes('## Result of lyricist')) {
    return {
      calls: [
        { _tool: 'lyricist', topic: 'rain', mood: 'sad' },
        { _tool: 'tempo', feel: 'slow', _output: 70 },
      ],
      output: null,
    };
  }
  return { calls: [], output: { title: 'Rain', tempo: 70, lyrics: ['drip', 'drop'] } };
}

describe('codegen of an Idea written with `_delegate` / `_scopes` (R-DEL-1, R-SCOPE-1)', () => {
  let scratch: string;
  let seedsSource: string;
  let actsSource: string;
  let lyricistSource: string;

  beforeAll(async () => {
    await fs.mkdir(path.join(REPO_ROOT, '.ideact-tmp'), { recursive: true });
    scratch = await fs.mkdtemp(path.join(REPO_ROOT, '.ideact-tmp', 'delegate-idea-'));
    for (const vocabulary of ['seeds', 'acts']) {
      const ideas = path.join(scratch, vocabulary, 'ideas');
      await fs.mkdir(ideas, { recursive: true });
      const leader = await fs.readFile(path.join(FIXTURES, 'band-leader.idea.json'), 'utf8');
      await fs.writeFile(
        path.join(ideas, 'band-leader.idea.json'),
        vocabulary === 'acts' ? leader.replace(/"_module"/g, '"_delegate"') : leader,
      );
      await fs.copyFile(
        path.join(FIXTURES, 'lyricist.idea.json'),
        path.join(ideas, 'lyricist.idea.json'),
      );
      await generateFromIdeas([ideas], {
        outDir: path.join(scratch, vocabulary, 'generated'),
        moduleRoot: ideas,
      });
    }
    const read = (vocabulary: string, name: string): Promise<string> =>
      fs.readFile(path.join(scratch, vocabulary, 'generated', `${name}.ts`), 'utf8');
    seedsSource = await read('seeds', 'band-leader');
    actsSource = await read('acts', 'band-leader');
    lyricistSource = await read('acts', 'lyricist');
  });
  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });
  beforeEach(() => getMetadataStorage().reset());

  it('R-DEL-1 emits @Delegate for an Idea whose tools use `_delegate`, @Module for the seed twin; nothing else differs', () => {
    expect(actsSource).toContain("@Delegate('band-leader.idea.json', { resolution: 'upfront' })");
    expect(actsSource).toMatch(/import \{ Delegate, Describe, Output, Tool \} from 'ideact';/);
    expect(actsSource).not.toMatch(/\bModule\b/);
    expect(seedsSource).toContain("@Module('band-leader.idea.json', { resolution: 'upfront' })");
    // Apart from the decorator's name (and its place in the sorted import), the files are the same.
    const withoutImport = (source: string): string =>
      source.replace(/^import .* from 'ideact';$/m, '');
    expect(withoutImport(actsSource).replace(/\bDelegate\b/g, 'Module')).toBe(
      withoutImport(seedsSource),
    );
    expect(seedsSource).toMatch(/import \{ Describe, Module, Output, Tool \} from 'ideact';/);
    // An Idea without tools has no vocabulary of its own: the seed decorator.
    expect(lyricistSource).toContain("@Module('lyricist.idea.json', { resolution: 'upfront' })");
  });

  // The generated source equals the seed twin's (type-checked in agent-idea.test.ts) but for the name.
  it('the generated @Delegate class has the same schema as its twin, with `_delegate`, and runs the same', async () => {
    const load = async (vocabulary: string): Promise<ToolClass> =>
      (
        (await import(path.join(scratch, vocabulary, 'generated', 'band-leader.ts'))) as {
          BandLeader: ToolClass;
        }
      ).BandLeader;
    const Acts = await load('acts');
    const Seeds = await load('seeds');
    const actsSchema = toolSchema(Acts);
    expect(actsSchema.properties._delegate).toEqual({ const: 'band-leader.idea.json' });
    expect(JSON.stringify(actsSchema).replace(/"_delegate"/g, '"_module"')).toBe(
      JSON.stringify(toolSchema(Seeds)),
    );

    const run = async (
      vocabulary: string,
      Tool: ToolClass,
    ): Promise<{ output: unknown; requests: number }> => {
      const provider = new ScriptedProvider(bandScript);
      const agent = createAgent({
        tools: [Tool],
        provider,
        moduleRoot: path.join(scratch, vocabulary, 'ideas'),
      });
      const output = await agent.call(Tool as never, { song: 'rain' } as never);
      return { output, requests: provider.requests.length };
    };
    const acts = await run('acts', Acts);
    expect(acts).toEqual({
      output: { title: 'Rain', tempo: 70, lyrics: ['drip', 'drop'] },
      requests: 3,
    });
    expect(acts).toEqual(await run('seeds', Seeds));
  });
});
