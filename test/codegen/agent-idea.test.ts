import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  createAgent,
  createContainer,
  disposeContainer,
  Executor,
  NestedAgentRequiredError,
  toolSchema,
  type ProviderRequest,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { REPO_ROOT, typeCheck, type Diagnostic } from '../support/compile-typescript';
import { BandLeader } from './fixtures/band-leader';

/**
 * Issue 14 item 8: an Idea whose schema is a Vessel (an agent Idea that calls other Ideas, R-MOD-5).
 * `fixtures/band-leader.idea.json` offers the `lyricist` module (upfront, fixed `_outputPath`) and an
 * inline `tempo` tool; its generated class (`fixtures/band-leader.ts`, checked byte for byte in
 * generate-from-ideas.test.ts) types the run's final output, and calls run its Calls.
 */
const FIXTURES = path.join(__dirname, 'fixtures');

const ENTRY = { title: 'Rain', tempo: 70, lyrics: ['drip', 'drop'] };

function textOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** The band leader calls the lyricist and the tempo tool, then answers from the results it saw. */
function bandScript(request: ProviderRequest): unknown {
  const text = textOf(request);
  if (text.includes('You are a lyricist')) return { title: 'Rain', verses: ['drip', 'drop'] };
  if (!text.includes('You are a band leader')) throw new Error(`unexpected request: ${text}`);
  if (!text.includes('## Result of lyricist')) {
    return {
      calls: [
        { _tool: 'lyricist', topic: 'rain', mood: 'sad' },
        { _tool: 'tempo', feel: 'slow', _output: 70 },
      ],
      output: null,
    };
  }
  const verses = /"verses": \[\s*"(\w+)",\s*"(\w+)"/.exec(text);
  return {
    calls: [],
    output: { title: 'Rain', tempo: 70, lyrics: verses ? [verses[1], verses[2]] : [] },
  };
}

const HIDDEN = ['_module', '_resolution', '_outputPath', 'lyricist.idea.json', 'state.lyrics'];

function bandLeaderRequests(provider: ScriptedProvider): ProviderRequest[] {
  return provider.requests.filter((request) => textOf(request).includes('You are a band leader'));
}

describe('agent Ideas: codegen types the final output (issue 14 item 8a, 8d)', () => {
  let diagnostics: Diagnostic[];
  let scratch: string;

  beforeAll(async () => {
    await fs.mkdir(path.join(REPO_ROOT, '.ideact-tmp'), { recursive: true });
    scratch = await fs.mkdtemp(path.join(REPO_ROOT, '.ideact-tmp', 'agent-idea-'));
    const file = path.join(scratch, 'agent-call.ts');
    const bandLeader = path.join(FIXTURES, 'band-leader').split(path.sep).join('/');
    await fs.writeFile(
      file,
      [
        "import type { Agent, Executor } from 'ideact';",
        `import { BandLeader, type BandLeaderOutput } from '${bandLeader}';`,
        'declare const agent: Agent;',
        'declare const executor: Executor;',
        'type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'export async function viaAgent(): Promise<BandLeaderOutput> {',
        "  const entry = await agent.call(BandLeader, { song: 'rain', mood: 'sad' });",
        '  const exact: Equal<typeof entry, BandLeaderOutput> = true;',
        '  const shape: Equal<BandLeaderOutput, { title: string; tempo: number; lyrics?: string[] }> =',
        '    true;',
        '  const tempo: number = entry.tempo;',
        '  // @ts-expect-error the output is what the run returns, not the Vessel with its calls',
        '  void entry.calls;',
        '  return exact && shape ? { ...entry, tempo } : entry;',
        '}',
        'export async function viaExecutor(): Promise<string> {',
        "  return (await executor.call(BandLeader, { song: 'rain' })).title;",
        '}',
        'export async function wrongParams(): Promise<void> {',
        '  // @ts-expect-error `song` is required by the Idea input schema',
        "  await agent.call(BandLeader, { mood: 'sad' });",
        '}',
        '',
      ].join('\n'),
    );
    diagnostics = typeCheck([path.join(FIXTURES, 'band-leader.ts'), file]);
  });
  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });

  it('tsc: agent.call / executor.call of the generated class resolve to the Vessel output type, exactly', () => {
    expect(diagnostics).toEqual([]);
  });

  it('the generated @Output is the final output schema (with the Vessel root $defs), not the Vessel', () => {
    const output = toolSchema(BandLeader).properties._output;
    expect(output).toMatchObject({ $ref: '#/$defs/Entry', $defs: { Entry: { type: 'object' } } });
    expect(JSON.stringify(output)).not.toContain('calls');
  });
});

describe('agent Ideas: calls execute their Calls (issue 14 item 8b, 8c, 8d; R-MOD-5)', () => {
  it('agent.call(BandLeader, params) runs a nested agent and returns its typed output', async () => {
    const provider = new ScriptedProvider(bandScript);
    const agent = createAgent({ tools: [BandLeader], provider, moduleRoot: FIXTURES });

    const entry = await agent.call(BandLeader, { song: 'rain', mood: 'sad' });

    expect(entry).toEqual(ENTRY);
    expect(entry.tempo).toBe(70);
    // Two band-leader turns (the Calls ran in between) and one lyricist module request.
    expect(bandLeaderRequests(provider)).toHaveLength(2);
    expect(provider.requests).toHaveLength(3);
    provider.assertComplete();
  });

  it('the sub-model never sees _module, _resolution or a fixed _outputPath (schema and messages)', async () => {
    const provider = new ScriptedProvider(bandScript);
    const agent = createAgent({ tools: [BandLeader], provider, moduleRoot: FIXTURES });
    await agent.call(BandLeader, { song: 'rain' });

    const requests = bandLeaderRequests(provider);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      const seen = JSON.stringify(request);
      for (const hidden of HIDDEN) expect(seen).not.toContain(hidden);
      // What it may see: the tools' params (the lyricist's upfront contract) and descriptions.
      expect(seen).toContain('Ask the lyricist for the lyrics.');
      expect(seen).toContain('What the song is about');
    }
  });

  it("createContainer's Executor runs it as a nested agent too: executor.call(BandLeader, params)", async () => {
    const provider = new ScriptedProvider(bandScript);
    const container = createContainer({ tools: [BandLeader], provider, moduleRoot: FIXTURES });
    try {
      const entry = await container.get(Executor).call(BandLeader, { song: 'rain' });
      expect(entry).toEqual(ENTRY);
    } finally {
      disposeContainer(container);
    }
  });

  it('a bare Executor throws NestedAgentRequiredError instead of returning unexecuted Calls', async () => {
    const provider = new ScriptedProvider(bandScript);
    const executor = new Executor({
      provider,
      tools: [toolSchema(BandLeader)],
      moduleRoot: FIXTURES,
    });
    const error: unknown = await executor.call(BandLeader, { song: 'rain' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(NestedAgentRequiredError.isInstance(error)).toBe(true);
    const typed = error as NestedAgentRequiredError;
    expect(typed.code).toBe('NESTED_AGENT_REQUIRED');
    expect(typed.toolName).toBe('bandLeader');
    expect(typed.module).toBe('band-leader.idea.json');
    expect(typed.message).toContain('agent.call');
    expect(provider.requests).toHaveLength(0);
  });
});
