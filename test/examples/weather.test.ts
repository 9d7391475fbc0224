import { viewOfKind, type AgentResult, type Message, type ProviderRequest } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { main, runWeather, weatherScript } from '../../examples/weather/main';
import { startWeatherServer, type WeatherServer } from '../../examples/weather/weather-server';
import { captureStdout, stayOffline } from './capture-stdout';

stayOffline();

function textOf(request: ProviderRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** The clean-room request of `adviseClothing`: its schema asks for the advice, not for a Vessel. */
function adviceRequest(provider: ScriptedProvider): ProviderRequest {
  const found = provider.requests.find((request) => request.schema.properties?.umbrella);
  if (found === undefined) throw new Error('no request asked for the clothing advice');
  return found;
}

describe('examples/weather: a @Service Activity with an injected HTTP client, state and a †state reference', () => {
  let server: WeatherServer;
  let provider: ScriptedProvider;
  let result: AgentResult;

  beforeAll(async () => {
    server = await startWeatherServer();
    provider = new ScriptedProvider(weatherScript());
    result = await runWeather({ provider, weatherUrl: server.url });
  });

  afterAll(async () => {
    await server.close();
  });

  it('R-CALL-3 the injected HTTP client asked the (local) weather service for Oslo once', () => {
    expect(server.requests).toEqual(['Oslo']);
  });

  it('R-OUT-1 state.weather holds what the service answered', () => {
    const context = result.state.nodes
      .map((node) => node.message)
      .filter((message): message is Message => message.type !== 'vessel');
    expect(viewOfKind(context, 'state')?.data).toEqual({
      weather: { city: 'Oslo', temperature: -3, unit: 'C', conditions: 'light snow' },
    });
  });

  it('R-VAR-1 R-MOD-1 the advice module received the resolved forecast, not the reference', () => {
    const text = textOf(adviceRequest(provider));
    expect(text).toContain(
      [
        '## Data: ¶input',
        '{',
        '  "forecast": {',
        '    "city": "Oslo",',
        '    "temperature": -3,',
        '    "unit": "C",',
        '    "conditions": "light snow"',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(text).not.toContain('"forecast": "†state.weather"');
    // Clean room: nothing of the parent's conversation reaches the module.
    expect(text).not.toContain('What should I wear');
  });

  it('ends with the final answer and uses every scripted reply', () => {
    provider.assertComplete();
    expect(result.stopReason).toBe('output');
    expect(result.output).toEqual({
      city: 'Oslo',
      summary: '-3 °C and light snow.',
      wear: ['warm coat', 'gloves', 'boots'],
    });
  });

  it('main() runs offline, says so first, and prints the state and the answer', async () => {
    const printed = await captureStdout(main);
    const lines = printed.split('\n');
    expect(lines[0]).toBe('provider: scripted replies (offline, not a model)');
    expect(printed).toContain('weather service served: Oslo\n');
    expect(printed).toContain('state: {"weather":{"city":"Oslo","temperature":-3');
    expect(printed).toContain('"summary": "-3 °C and light snow."');
  });
});
