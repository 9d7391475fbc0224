/**
 * `npm run example -- trip`, or with tsx: `node --import tsx examples/trip/main.ts`. A Tool whose
 * params are typed by decorators only, nested classes, and an Activity service whose dependencies come
 * by typedi's `@Inject`: it runs the same whether or not the compiler emitted decorator metadata.
 * Offline: scripted replies (a real model with OPENAI_API_KEY / OPENAI_BASE_URL).
 */
import { createDefaultProvider, toolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { callResults, runTrip, tripScript } from './run-trip';
import { PlanTrip, TripActivities } from './tools';

/** Prints the tool schema, each Call's result and the answer, one JSON value per line. */
export async function main(): Promise<void> {
  const real =
    // Blank values count as unset, like createDefaultProvider() sees them.
    Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());
  const provider = real ? createDefaultProvider() : new ScriptedProvider(tripScript());
  process.stdout.write(
    real
      ? `provider: ${provider.name ?? 'custom'}\n`
      : 'provider: scripted replies (offline, not a model)\n',
  );
  process.stdout.write(`tool schema: ${JSON.stringify(toolSchema(PlanTrip))}\n`);
  const result = await runTrip({ tools: [PlanTrip], activities: [TripActivities], provider });
  process.stdout.write(`call results: ${JSON.stringify(callResults(result))}\n`);
  process.stdout.write(`output: ${JSON.stringify(result.output)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
