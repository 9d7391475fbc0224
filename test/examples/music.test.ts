import * as path from 'node:path';
import type { AgentNode } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { main } from '../../examples/music/main';
import { runMusic } from '../../examples/music/run';
import { musicScript } from '../../examples/music/script';
import { captureStdout, stayOffline } from './capture-stdout';

stayOffline();

function resultOf(nodes: AgentNode[], tool: string): AgentNode[] {
  return nodes.filter((node) => node.message.type === 'result' && node.message.call._tool === tool);
}

describe('examples/music: Producer → Composer → Sound-Designer (seeds 000/003)', () => {
  let provider: ScriptedProvider;
  let result: Awaited<ReturnType<typeof runMusic>>;

  beforeAll(async () => {
    provider = new ScriptedProvider(musicScript());
    result = await runMusic({ provider });
  });

  it('R-LOOP-3 the producer ends with the record, built from what the composer and designer returned', () => {
    expect(result.output).toEqual({
      title: 'Grey Mornings EP',
      tracks: [
        {
          title: 'Intro (rain)',
          kind: 'ambience',
          summary: 'Ambience: rain ambience patch.',
        },
        {
          title: 'Rain on the Window',
          kind: 'song',
          summary: 'A slow piano ballad with a soft pad.',
        },
      ],
      notes: 'Ballad by the composer; the rain intro came straight from the sound designer.',
    });
  });

  it('R-MOD-5 the composer ran as a nested agent that called the sound designer twice', () => {
    const [composer] = resultOf(result.state.nodes, 'composer');
    const nested = composer?.metadata.nested ?? [];
    expect(nested).toHaveLength(1);
    expect(nested[0]!.chain.map((id) => path.basename(id))).toEqual(['composer.json']);
    expect(resultOf(nested[0]!.nodes, 'melody')).toHaveLength(1);
    expect(resultOf(nested[0]!.nodes, 'soundDesigner')).toHaveLength(2);
    // Each level's own prompt (a module's clean room starts with its Tool's brief, `## Tool: …`).
    const askedBy = provider.requests.map(
      (request) =>
        request.messages
          .find((message) => message.role === 'system' && message.content.startsWith('You are a'))
          ?.content.split('.')[0],
    );
    expect(askedBy.filter((who) => who?.startsWith('You are a composer'))).toHaveLength(3);
    expect(askedBy.filter((who) => who?.startsWith('You are a sound designer'))).toHaveLength(3);
  });

  it('main() prints the offline label, the composer at work and the record', async () => {
    const printed = await captureStdout(main);
    const lines = printed.split('\n');
    expect(lines[0]).toMatch(/^provider: .*scripted replies, not a model/);
    expect(printed).toContain('composer turn 1: calls melody');
    expect(printed).toMatch(/done: output after 2 producer turns/);
    expect(printed).toContain('"title": "Grey Mornings EP"');
  });
});
