/**
 * `npm run example -- weather`: an explicit Activity in a `@Service` with an injected HTTP client
 * writes the forecast into the State (`_outputPath`), then a latent clean-room tool reads it through
 * `†state.weather`. Offline: a stand-in weather service on 127.0.0.1 and scripted LLM replies.
 */
import {
  agentFromContainer,
  createContainer,
  createDefaultProvider,
  viewOfKind,
  type AgentResult,
  type Provider,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { AdviseClothing, GetWeather, WeatherActivities, WeatherHttpClient } from './tools';
import { startWeatherServer } from './weather-server';

/** Schema of the agent's final answer. */
export const WEATHER_OUTPUT = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    summary: { type: 'string' },
    wear: { type: 'array', items: { type: 'string' } },
  },
  required: ['city', 'summary', 'wear'],
} as const;

/** The replies a model would give, in order: fetch, advise (+ the advice module's own reply), answer. */
export function weatherScript(): unknown[] {
  return [
    {
      calls: [
        { _reasoningForCall: 'I need the forecast first.', _tool: 'getWeather', city: 'Oslo' },
      ],
      output: null,
    },
    { calls: [{ _tool: 'adviseClothing', forecast: '†state.weather' }], output: null },
    { wear: ['warm coat', 'gloves', 'boots'], umbrella: false },
    {
      calls: [],
      output: {
        city: 'Oslo',
        summary: '-3 °C and light snow.',
        wear: ['warm coat', 'gloves', 'boots'],
      },
    },
  ];
}

/** Runs the weather agent against `weatherUrl` (the HTTP client's base URL) with `provider`. */
export async function runWeather(options: {
  provider: Provider;
  weatherUrl: string;
  task?: string;
}): Promise<AgentResult> {
  const container = createContainer({
    tools: [GetWeather, AdviseClothing],
    activities: [WeatherActivities],
    provider: options.provider,
  });
  // Swap the injected dependency's configuration, as a test would swap the whole client.
  container.get(WeatherHttpClient).baseUrl = options.weatherUrl;
  const agent = agentFromContainer(container);
  return agent.run({
    task: options.task ?? 'What should I wear in Oslo today? Store the forecast, then advise.',
    output: WEATHER_OUTPUT as unknown as Record<string, unknown>,
    maxTurns: 5,
  });
}

/** Starts the stand-in service, runs the agent, prints the stored State and the answer. */
export async function main(): Promise<void> {
  const real =
    // Blank values count as unset, like createDefaultProvider() sees them.
    Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());
  const provider = real ? createDefaultProvider() : new ScriptedProvider(weatherScript());
  process.stdout.write(
    real
      ? `provider: ${provider.name ?? 'custom'}\n`
      : 'provider: scripted replies (offline, not a model)\n',
  );
  const server = await startWeatherServer();
  try {
    const result = await runWeather({ provider, weatherUrl: server.url });
    const state = viewOfKind(
      result.state.nodes.map((node) => node.message).filter((m) => m.type !== 'vessel'),
      'state',
    );
    process.stdout.write(`weather service served: ${server.requests.join(', ')}\n`);
    process.stdout.write(`state: ${JSON.stringify(state?.data)}\n`);
    process.stdout.write(`output: ${JSON.stringify(result.output, null, 2)}\n`);
  } finally {
    await server.close();
  }
}

if (require.main === module) {
  void main();
}
