/**
 * Scripted LLM replies for the music example, so it runs offline and deterministically: the reply
 * depends on who is asking (the system prompt of the Idea) and on how many turns that agent already
 * took. Replies are built from what each request shows, so the data flow between levels is real.
 */
import type { ProviderRequest, ScriptFunction } from 'ideact';

function textOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

function turnOf(request: ProviderRequest): number {
  return request.messages.filter((message) => message.role === 'assistant').length;
}

function match(text: string, pattern: RegExp, fallback: string): string {
  return pattern.exec(text)?.[1] ?? fallback;
}

function producer(request: ProviderRequest): unknown {
  const text = textOf(request);
  if (turnOf(request) === 0) {
    return {
      calls: [
        {
          _reasoningForCall: 'The brief asks for one ballad: the composer writes it.',
          _tool: 'composer',
          mood: 'melancholic piano ballad',
          tempo: 68,
          _outputPath: 'state.songs.first',
        },
        {
          _reasoningForCall:
            'The rain intro is not part of a song: ask the sound designer directly, in parallel.',
          _tool: 'soundDesigner',
          sound: 'rain ambience',
          role: 'effect',
          _imports: ['input'],
        },
      ],
      output: null,
    };
  }
  const song = match(text, /"title": "([^"]+)"/, 'Untitled');
  const ambience = match(text, /## Result of soundDesigner[\s\S]*?"name": "([^"]+)"/, 'rain');
  return {
    calls: [],
    output: {
      title: 'Grey Mornings EP',
      tracks: [
        { title: 'Intro (rain)', kind: 'ambience', summary: `Ambience: ${ambience}.` },
        { title: song, kind: 'song', summary: 'A slow piano ballad with a soft pad.' },
      ],
      notes: 'Ballad by the composer; the rain intro came straight from the sound designer.',
    },
  };
}

function composer(request: ProviderRequest): unknown {
  const text = textOf(request);
  const tempo = Number(match(text, /"tempo": (\d+)/, '72'));
  const turn = turnOf(request);
  if (turn === 0) {
    return {
      calls: [
        {
          _tool: 'melody',
          bars: 4,
          _output: {
            key: 'A minor',
            tempo,
            notes: [
              { pitch: 'A3', startBeat: 0, beats: 2 },
              { pitch: 'C4', startBeat: 2, beats: 2 },
              { pitch: 'E4', startBeat: 4, beats: 3 },
              { pitch: 'D4', startBeat: 7, beats: 1 },
            ],
          },
        },
      ],
      output: null,
    };
  }
  if (turn === 1) {
    return {
      calls: [
        { _tool: 'soundDesigner', sound: 'soft felt piano', role: 'lead', character: ['intimate'] },
        {
          _tool: 'soundDesigner',
          sound: 'slow string pad',
          role: 'pad',
          character: ['warm', 'wide'],
        },
      ],
      output: null,
    };
  }
  // Parallel Calls finish in any order: find each part's patch by the role its Call asked for.
  const patchFor = (role: string, fallback: string): string => {
    const block = text
      .split('## Result of soundDesigner')
      .slice(1)
      .find((part) => part.includes(`"role": "${role}"`));
    return block === undefined ? fallback : match(block, /"name": "([^"]+)"/, fallback);
  };
  return {
    calls: [],
    output: {
      title: 'Rain on the Window',
      key: 'A minor',
      tempo,
      structure: ['intro', 'verse', 'chorus', 'outro'],
      parts: [
        { role: 'lead', patchName: patchFor('lead', 'piano') },
        { role: 'pad', patchName: patchFor('pad', 'pad') },
      ],
    },
  };
}

function soundDesigner(request: ProviderRequest): unknown {
  const text = textOf(request);
  const sound = match(text, /"sound": "([^"]+)"/, 'sound');
  const noisy = /rain|noise|foley/.test(sound);
  return {
    name: `${sound} patch`,
    patch: {
      oscillators: [{ waveform: noisy ? 'noise' : 'triangle', detuneCents: 0, level: 0.8 }],
      filter: { type: 'lowpass', cutoffHz: noisy ? 3500 : 1800, resonance: 0.2 },
      envelope: { attack: noisy ? 1.5 : 0.01, decay: 0.4, sustain: 0.7, release: 1.2 },
      effects: [{ type: 'reverb', mix: 0.35 }],
    },
    audio: { durationSeconds: 8, sampleRate: 48000, description: `Eight seconds of ${sound}.` },
  };
}

/** The scripted replies of all three levels (use with `new ScriptedProvider(musicScript())`). */
export function musicScript(): ScriptFunction {
  return (request) => {
    // A module's clean room may start with its Tool's brief (`## Tool: …`); the Idea's own prompt follows.
    const system =
      request.messages.find(
        (message) => message.role === 'system' && message.content.startsWith('You are a'),
      )?.content ?? '';
    if (system.startsWith('You are a record producer')) return producer(request);
    if (system.startsWith('You are a composer')) return composer(request);
    if (system.startsWith('You are a sound designer')) return soundDesigner(request);
    throw new Error(`The music script does not know who is asking: "${system.slice(0, 60)}"`);
  };
}
