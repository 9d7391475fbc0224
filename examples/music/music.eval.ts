/**
 * The music example's eval (docs/evals.md): `npm run eval`, or `npx ideact eval
 * examples/music/music.eval.ts`. Offline, the producer, composer and sound designer answer from the
 * script (script.ts) and the judge from `judgeScript` below — deterministic stand-ins, not a model:
 * the script always writes one ballad and a rain intro, so the "two-ballads" case fails on purpose.
 * With OPENAI_API_KEY (or OPENAI_BASE_URL) set, the target and the judge ask the real model.
 */
import { ScriptedProvider, type EvalSpec, type ProviderRequest } from 'ideact';
import { musicScript } from './script';

const real =
  Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());

/** Numbers a brief may ask for, by word. */
const COUNTS: Record<string, number> = { one: 1, a: 1, two: 2, three: 3 };

/**
 * The offline judge: three votes that agree — pass when the record has as many songs as the brief
 * asks for (`one ballad`, `Two slow ballads`), with the reason a real judge would give.
 */
function judgeScript(request: ProviderRequest): unknown {
  const prompt = request.messages.map((message) => message.content).join('\n');
  const brief = /"brief": "([^"]+)"/.exec(prompt)?.[1] ?? '';
  const asked =
    COUNTS[/\b(one|a|two|three)\b[^.,]*?\bballads?\b/i.exec(brief)?.[1]?.toLowerCase() ?? 'one'] ??
    1;
  const output = prompt.slice(prompt.indexOf('## Output'));
  const songs = (output.match(/"kind": "song"/g) ?? []).length;
  const pass = songs === asked;
  const vote = {
    reason: pass
      ? `The brief asks for ${asked} song(s) and the record has ${songs}.`
      : `The brief asks for ${asked} song(s) but the record has ${songs}.`,
    pass,
    score: pass ? 1 : songs / asked / 2,
  };
  return ScriptedProvider.options([vote, vote, vote]);
}

const spec: EvalSpec = {
  name: 'music',
  target: { idea: 'ideas/producer.json' },
  ...(real ? {} : { provider: new ScriptedProvider(musicScript()) }),
  judge: real ? { model: 'gpt-4o' } : { provider: new ScriptedProvider(judgeScript) },
  cases: 'music-cases.jsonl',
  scorers: [
    { type: 'schema' },
    { type: 'toolCalled', tool: 'melody', name: 'melody written (in the composer)' },
    { type: 'maxTurns', max: 3 },
    {
      type: 'judge',
      rubric:
        'The record has exactly as many songs as the brief asks for, and an ambience track only when the brief asks for one.',
      votes: 3,
    },
  ],
  // The two-ballads case fails offline (the script writes one ballad): half the cases must pass.
  thresholds: { passRate: 0.5 },
};

export default spec;
