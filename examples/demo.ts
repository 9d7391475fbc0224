/**
 * `npm run demo`: the music example (seeds 000/003) end to end — a Producer agent calls a Composer
 * module (itself a nested agent) and a Sound-Designer module in parallel. Without OPENAI_API_KEY /
 * OPENAI_BASE_URL the replies are scripted (no model, no network) and the first line says so.
 */
import { createDefaultProvider, renderState, type Provider } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { runMusic } from './music/run';
import { musicScript } from './music/script';

function chooseProvider(): { provider: Provider; label: string } {
  const real =
    // Blank values count as unset, like createDefaultProvider() sees them.
    Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());
  if (!real) {
    return {
      provider: new ScriptedProvider(musicScript()),
      label:
        'ideact demo — OFFLINE: OPENAI_API_KEY is not set, so every LLM reply below is a scripted stand-in (ScriptedProvider), not a model. Token counts are estimates.',
    };
  }
  const provider = createDefaultProvider();
  return { provider, label: `ideact demo — using ${provider.name ?? 'the configured provider'}` };
}

/** Runs the demo and prints progress, the node tree and the final output. */
export async function main(): Promise<void> {
  const { provider, label } = chooseProvider();
  const print = (line = ''): void => {
    process.stdout.write(`${line}\n`);
  };
  print(label);
  print('Producer → Composer (nested agent) → Sound-Designer; each module runs in a clean room.');
  print();
  const { output, state } = await runMusic({ provider, log: print });
  print();
  print('── node tree (what `ideact inspect` shows) ──');
  process.stdout.write(renderState(state, 'producer'));
  print();
  print('── final output ──');
  print(JSON.stringify(output, null, 2));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
