import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Idea, ProviderRequest } from 'ideact';

/**
 * Shared by the eval tests (issue 33): a "capital" Idea (input `{ country }`, output `{ capital }`)
 * and a scripted model that knows some capitals and gets others wrong, so each case's score,
 * reason and the summary are known exactly.
 */

/** The Idea every capital case runs: a plain Idea (no tools) whose output is `{ capital }`. */
export const capitalIdea: Idea = {
  name: 'capital',
  context: [
    { type: 'system', text: 'You name the capital of a country.' },
    {
      type: 'input',
      input: { country: 'Norway' },
      schema: {
        type: 'object',
        properties: { country: { type: 'string' } },
        required: ['country'],
        additionalProperties: false,
      },
    },
  ],
  schema: {
    type: 'object',
    properties: { capital: { type: 'string' } },
    required: ['capital'],
    additionalProperties: false,
  },
};

/** What the scripted model answers per country: right for France and Japan, wrong for Peru. */
export const ANSWERS: Record<string, string> = {
  France: 'Paris',
  Japan: 'Tokyo',
  Peru: 'Cusco',
  Norway: 'Oslo',
};

/** The country a request asks about (from the rendered input message). */
export function countryOf(request: ProviderRequest): string {
  const text = request.messages.map((message) => message.content).join('\n');
  const match = /"country": "([^"]+)"/.exec(text);
  if (match === null) throw new Error(`no country in the request: ${text.slice(0, 200)}`);
  return match[1] as string;
}

/** The scripted model of the capital cases: one Vessel answer with the capital it "knows". */
export function capitalScript(request: ProviderRequest): unknown {
  return { calls: [], output: { capital: ANSWERS[countryOf(request)] ?? 'Unknown' } };
}

/** A temp folder holding `capital.json`. */
export async function capitalFolder(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-evals-')));
  await fs.writeFile(path.join(dir, 'capital.json'), JSON.stringify(capitalIdea, null, 2));
  return dir;
}

/** The three capital cases: two the model gets right, one it gets wrong. */
export const capitalCases = [
  { name: 'france', input: { country: 'France' }, expected: { capital: 'Paris' } },
  { name: 'japan', input: { country: 'Japan' }, expected: { capital: 'Tokyo' } },
  { name: 'peru', input: { country: 'Peru' }, expected: { capital: 'Lima' } },
];
