import * as path from 'node:path';
import {
  Executor,
  executorWithNestedAgents,
  ModuleLoader,
  NestedAgentRequiredError,
  type Idea,
  type JSONSchema,
  type Message,
  type ProviderRequest,
  type ResultMessage,
  type ToolSchema,
  type TypedToolReference,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

const ideas = path.join(__dirname, '../../examples/music/ideas');

const patch = {
  name: 'Felt Keys',
  patch: {
    oscillators: [{ waveform: 'triangle', detuneCents: 4, level: 0.8 }],
    filter: { type: 'lowpass', cutoffHz: 1800, resonance: 0.2 },
    envelope: { attack: 0.01, decay: 0.6, sustain: 0.3, release: 1.2 },
    effects: [{ type: 'reverb', mix: 0.35 }],
  },
  audio: { durationSeconds: 4, sampleRate: 48000, description: 'soft felt piano' },
};

const song = {
  calls: [],
  output: {
    title: 'Grey Window',
    key: 'A minor',
    tempo: 72,
    structure: ['intro', 'verse', 'chorus', 'outro'],
    parts: [{ role: 'lead', patchName: 'Felt Keys' }],
  },
};

const melody = {
  key: 'A minor',
  tempo: 72,
  notes: [
    { pitch: 'A4', startBeat: 0, beats: 1 },
    { pitch: 'C5', startBeat: 1, beats: 2 },
  ],
};

function isVessel(schema: JSONSchema): boolean {
  return schema.properties?.calls !== undefined;
}

/** Answers by schema: the composer's Vessel gets a finished song, the sound designer a patch. */
function musicProvider(): ScriptedProvider {
  return new ScriptedProvider((request: ProviderRequest) =>
    isVessel(request.schema) ? song : patch,
  );
}

function vesselTools(idea: Idea): ToolSchema[] {
  const calls = idea.schema.properties?.calls;
  const items = calls && !Array.isArray(calls.items) ? calls.items : undefined;
  return (items?.anyOf ?? []) as ToolSchema[];
}

function results(messages: Message[]): ResultMessage[] {
  return messages.filter((message): message is ResultMessage => message.type === 'result');
}

function requestText(request: ProviderRequest | undefined): string {
  return JSON.stringify(request?.messages ?? []);
}

describe('Music example: Producer → Composer / Sound-Designer by direct calls', () => {
  const loader = new ModuleLoader({ moduleRoot: ideas });

  it('the producer calls the composer and the sound designer in parallel through all()', async () => {
    const producer = (await loader.load('producer.json')).idea;
    const provider = musicProvider();
    // The composer is an agent Idea (R-MOD-5): it runs as a nested agent and returns its output.
    const executor = executorWithNestedAgents({
      provider,
      tools: vesselTools(producer),
      moduleLoader: loader,
    });
    const context: Message[] = [
      ...producer.context.filter((message) => message.type !== 'input'),
      { type: 'input', input: { brief: 'BRIEF: a melancholic EP with a rain intro' } },
    ];

    const batch = await executor.all(
      [
        { _tool: 'composer', mood: 'sad ballad', tempo: 72, _outputPath: 'state.songs.first' },
        { _tool: 'soundDesigner', sound: 'rain on a window', role: 'effect', _imports: ['input'] },
      ],
      context,
    );

    expect(batch.ok).toBe(true);
    const [composerResult, designerResult] = results(batch.messages);
    expect(composerResult?.output).toEqual(song.output);
    expect(designerResult?.output).toEqual(patch);
    expect(batch.messages).toContainEqual(
      expect.objectContaining({ type: 'state', state: { songs: { first: song.output } } }),
    );
    expect(batch.messages).toContainEqual(
      expect.objectContaining({ type: 'state', state: { effects: patch } }),
    );

    expect(provider.requests).toHaveLength(2);
    const composerRequest = provider.requests.find((request) => isVessel(request.schema));
    const designerRequest = provider.requests.find((request) => !isVessel(request.schema));
    // The composer has no imports: it sees its own Idea and the params, not the producer's brief.
    expect(requestText(composerRequest)).toContain('You are a composer');
    expect(requestText(composerRequest)).toContain('sad ballad');
    expect(requestText(composerRequest)).not.toContain('BRIEF:');
    expect(requestText(composerRequest)).not.toContain('record producer');
    // The sound designer imported the producer's input, and nothing else of the producer.
    expect(requestText(designerRequest)).toContain('You are a sound designer');
    expect(requestText(designerRequest)).toContain('BRIEF:');
    expect(requestText(designerRequest)).toContain('rain on a window');
    expect(requestText(designerRequest)).not.toContain('record producer');
  });

  it("R-MOD-5 a bare Executor never returns the agent Idea's unexecuted Calls: NESTED_AGENT_REQUIRED", async () => {
    const producer = (await loader.load('producer.json')).idea;
    const provider = musicProvider();
    const executor = new Executor({ provider, tools: vesselTools(producer), moduleLoader: loader });

    const [failed] = results(await executor.call({ _tool: 'composer', mood: 'sad ballad' }, []));
    expect(failed?.output).toBeUndefined();
    expect(failed?.error?.code).toBe('NESTED_AGENT_REQUIRED');
    expect(failed?.error?.message).toContain('Tool "composer"');
    expect(failed?.error?.message).toContain('"composer.json"');
    expect(failed?.error?.message).toContain('createAgent');

    const Composer = { toolName: 'composer' } as TypedToolReference<{ mood: string }, unknown>;
    const thrown = await executor.call(Composer, { mood: 'sad ballad' }).catch((error) => error);
    expect(NestedAgentRequiredError.isInstance(thrown)).toBe(true);
    expect((thrown as NestedAgentRequiredError).code).toBe('NESTED_AGENT_REQUIRED');
    expect((thrown as NestedAgentRequiredError).toolName).toBe('composer');
    expect((thrown as NestedAgentRequiredError).module).toBe('composer.json');
    expect(provider.requests).toHaveLength(0);
  });

  it('inside the composer (depth 1): melody inline latent into the state, then sounds with the state imported', async () => {
    const composerModule = await loader.load('composer.json');
    const provider = musicProvider();
    const executor = new Executor({ provider, tools: [], moduleLoader: loader }).child({
      tools: vesselTools(composerModule.idea),
      depth: 1,
      chain: [composerModule.id],
    });
    const context: Message[] = [
      ...composerModule.idea.context.filter((message) => message.type !== 'input'),
      { type: 'input', input: { mood: 'COMPOSER-MOOD-sad', tempo: 72 } },
    ];

    const written = await executor.call({ _tool: 'melody', bars: 8, _output: melody }, context);
    expect(results(written)[0]?.output).toEqual(melody);
    expect(written[1]).toMatchObject({ type: 'state', state: { melody }, _outputMethod: 'set' });

    const badMelody = await executor.call(
      {
        _tool: 'melody',
        bars: 8,
        _output: { ...melody, notes: [{ pitch: 'H9', startBeat: 0, beats: 1 }] },
      },
      context,
    );
    expect(results(badMelody)[0]?.error?.code).toBe('INVALID_CALL_OUTPUT');

    const withMelody = [...context, ...written];
    const sounds = await executor.all(
      [
        { _tool: 'soundDesigner', sound: 'soft felt piano', role: 'lead' },
        { _tool: 'soundDesigner', sound: 'round sub bass', role: 'bass' },
      ],
      withMelody,
    );
    expect(sounds.ok).toBe(true);
    expect(results(sounds.messages).map((message) => message.output)).toEqual([patch, patch]);
    expect(provider.requests).toHaveLength(2);
    for (const request of provider.requests) {
      const text = requestText(request);
      expect(text).toContain('A4'); // the melody, imported through the state
      expect(text).not.toContain('COMPOSER-MOOD'); // the composer's input was not imported
      expect(text).not.toContain('You are a composer');
    }
  });

  it('the composer cannot call itself back through the producer chain (cycle)', async () => {
    const composerModule = await loader.load('composer.json');
    const producer = (await loader.load('producer.json')).idea;
    const executor = new Executor({
      provider: musicProvider(),
      tools: vesselTools(producer),
      moduleLoader: loader,
      chain: [composerModule.id],
      depth: 1,
    });
    const failed = results(await executor.call({ _tool: 'composer', mood: 'x' }, []))[0];
    expect(failed?.error?.code).toBe('MODULE_CYCLE');
    expect(failed?.error?.message).toContain('composer.json → composer.json');
  });
});
