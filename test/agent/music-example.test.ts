import * as path from 'node:path';
import { ScriptedProvider } from 'ideact/testing';
import type { ProviderRequest } from 'ideact';
import { runMusic } from '../../examples/music/run';
import { musicScript } from '../../examples/music/script';

function textOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** The Idea's own prompt: a module's clean room starts with its Tool's brief (`## Tool: …`). */
function ideaPrompt(request: ProviderRequest): string {
  return (
    request.messages.find(
      (message) => message.role === 'system' && message.content.startsWith('You are a'),
    )?.content ?? ''
  );
}

function levelOf(request: ProviderRequest): 'producer' | 'composer' | 'soundDesigner' {
  const system = ideaPrompt(request);
  if (system.startsWith('You are a record producer')) return 'producer';
  if (system.startsWith('You are a composer')) return 'composer';
  return 'soundDesigner';
}

describe('examples/music: Producer → Composer → Sound-Designer (R-MOD-5, R-MOD-1)', () => {
  let provider: ScriptedProvider;
  let result: Awaited<ReturnType<typeof runMusic>>;
  const lines: string[] = [];

  beforeAll(async () => {
    provider = new ScriptedProvider(musicScript());
    result = await runMusic({ provider, log: (line) => lines.push(line) });
  });

  it('R-MOD-5 runs end to end with createAgent: the producer returns the record', () => {
    expect(result.output).toMatchObject({
      title: 'Grey Mornings EP',
      tracks: [
        { title: 'Intro (rain)', kind: 'ambience' },
        { title: 'Rain on the Window', kind: 'song' },
      ],
    });
    expect(result.state.nextStep).toMatchObject({ module: 'done', args: { reason: 'output' } });
    expect(lines.at(-1)).toMatch(/^done: output/);
  });

  it('R-MOD-5 the composer runs as a nested agent whose state is kept under the parent result node', () => {
    const composerResult = result.state.nodes.find(
      (node) => node.message.type === 'result' && node.message.call._tool === 'composer',
    )!;
    expect(composerResult.message).toMatchObject({
      output: {
        title: 'Rain on the Window',
        parts: [{ patchName: 'soft felt piano patch' }, { patchName: 'slow string pad patch' }],
      },
    });
    const nested = composerResult.metadata.nested ?? [];
    expect(nested).toHaveLength(1);
    const composerState = nested[0]!;
    expect(composerState.chain.map((id) => path.basename(id))).toEqual(['composer.json']);
    expect(composerState.usage.turns).toBe(3);
    const designerCalls = composerState.nodes.filter(
      (node) => node.message.type === 'result' && node.message.call._tool === 'soundDesigner',
    );
    expect(designerCalls).toHaveLength(2);
    // The output of the composer was written to the producer's state (fixed choice of output path).
    expect(
      result.state.nodes.some(
        (node) => node.message.type === 'state' && JSON.stringify(node.message).includes('"songs"'),
      ),
    ).toBe(true);
  });

  it('R-CALL-4 the producer calls the composer and the sound designer in parallel', () => {
    const levels = provider.requests.map(levelOf);
    const composerRequests = levels.flatMap((level, index) =>
      level === 'composer' ? [index] : [],
    );
    // The sound designer request that carries the producer's brief is the producer's direct call.
    const direct = provider.requests.findIndex(
      (request) =>
        levelOf(request) === 'soundDesigner' && textOf(request).includes('melancholic EP'),
    );
    expect(direct).toBeGreaterThan(0);
    expect(direct).toBeLessThan(composerRequests.at(-1)!);
    expect(levels.filter((level) => level === 'producer')).toHaveLength(2);
    expect(levels.filter((level) => level === 'soundDesigner')).toHaveLength(3);
  });

  it('R-MOD-1 no level saw what it did not import (proof from the recorded requests)', () => {
    const brief = 'melancholic EP';
    for (const request of provider.requests) {
      const text = textOf(request);
      switch (levelOf(request)) {
        case 'composer':
          // Its own Idea + the Call's params only: nothing of the producer.
          expect(text).not.toContain('record producer');
          expect(text).not.toContain(brief);
          expect(text).not.toContain('rain ambience');
          expect(text).toContain('melancholic piano ballad');
          break;
        case 'soundDesigner': {
          expect(text).not.toContain('You are a composer');
          expect(text).not.toContain('record producer');
          if (text.includes(brief)) {
            // Called by the producer with _imports ["input"]: the brief, not the producer's state.
            expect(text).toContain('rain ambience');
            expect(text).not.toContain('¶state');
          } else {
            // Called by the composer with _imports ["state"]: the melody, not the composer's input.
            expect(text).toContain('"pitch": "A3"');
            expect(text).not.toContain('melancholic piano ballad');
            expect(text).not.toContain(brief);
          }
          break;
        }
        case 'producer':
          // The producer sees the composer's output, never its inner work (melody, its calls and their results).
          expect(text).not.toContain('You are a composer');
          expect(text).not.toContain('"pitch"');
          expect(text).not.toContain('intimate');
          expect(text).not.toContain('Eight seconds of soft felt piano');
          break;
      }
    }
    const composerFirst = provider.requests.find((request) => levelOf(request) === 'composer')!;
    expect(composerFirst.messages.map((message) => message.role)).toEqual([
      'system',
      'system',
      'user',
      'user',
    ]);
    // R-MOD-1 the brief holds the designer's words only: the producer's Tool and the composer Idea.
    expect(composerFirst.messages[0]!.content).toBe(
      [
        '## Tool: composer',
        'Have the composer write one song (melody and sounds). Its result is stored at state.songs.<slot>.',
        'Writes a song for a mood: composes the melody itself, then asks the sound designer for the sounds that realise it.',
      ].join('\n'),
    );
  });
});
