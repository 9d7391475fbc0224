/**
 * `npm run example -- music`: the Producer → Composer → Sound-Designer example. Offline and scripted
 * unless OPENAI_API_KEY / OPENAI_BASE_URL is set, then it asks the real model.
 */
import { ScriptedProvider, createDefaultProvider } from 'ideact';
import { runMusic } from './run';
import { musicScript } from './script';

export async function main(): Promise<void> {
  const real =
    // Blank values count as unset, like createDefaultProvider() sees them.
    Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());
  const provider = real ? createDefaultProvider() : new ScriptedProvider(musicScript());
  process.stdout.write(
    `provider: ${provider.name ?? 'custom'}${real ? '' : ' (scripted replies, not a model)'}\n`,
  );
  const { output } = await runMusic({ provider, log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
}
