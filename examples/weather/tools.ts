/**
 * The weather example's declarations: an explicit Activity in a `@Service` with an injected HTTP
 * client, and a latent follow-up tool that reads the stored forecast through a `†state…` reference.
 */
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { Activity, Describe, Module, Output, OutputPath, Service, Tool } from 'ideact';

/** The forecast the weather service returns and the agent stores in its State. */
export interface Forecast {
  city: string;
  temperature: number;
  unit: 'C' | 'F';
  conditions: string;
}

/** A tiny HTTP client; the container injects it, and tests point it at a local server. */
@Service()
export class WeatherHttpClient {
  /** Base URL of the weather service (`WEATHER_API_URL`, set by the example or the test). */
  baseUrl = process.env.WEATHER_API_URL ?? 'http://127.0.0.1:8787';

  /** GETs `path` relative to the base URL and parses the JSON reply. */
  async getJson(path: string, signal?: AbortSignal): Promise<unknown> {
    const response = await fetch(new URL(path, this.baseUrl), { signal });
    if (!response.ok)
      throw new Error(`weather service answered HTTP ${response.status} for ${path}`);
    return response.json();
  }
}

/** Explicit tool: its output comes from code (the `fetchWeather` Activity) and lands in `state.weather`. */
@Tool({ description: 'Fetch the current weather of a city from the weather service.' })
@Activity('fetchWeather')
@OutputPath('weather')
export class GetWeather {
  @IsString()
  @Describe('City name, e.g. "Oslo".')
  city!: string;

  @IsOptional()
  @IsIn(['C', 'F'])
  @Describe('Temperature unit of the answer (default C).')
  unit?: 'C' | 'F';
}

/** Latent tool in a clean room: the LLM writes the advice, seeing only the forecast it was given. */
@Tool({
  description: 'Advise what to wear for a forecast. Pass the stored forecast as †state.weather.',
})
@Module('anonymous')
@Output({
  type: 'object',
  properties: {
    wear: { type: 'array', items: { type: 'string' } },
    umbrella: { type: 'boolean' },
  },
  required: ['wear', 'umbrella'],
})
export class AdviseClothing {
  @IsObject()
  @Describe('The forecast to advise on (a reference such as †state.weather).')
  forecast!: Forecast;
}

/** The Activities: a service whose constructor dependency (the HTTP client) the container injects. */
@Service()
export class WeatherActivities {
  constructor(private readonly http: WeatherHttpClient) {}

  /** The `fetchWeather` Activity: one HTTP GET, validated params in, a Forecast out. */
  @Activity('fetchWeather')
  async fetchWeather(params: GetWeather, context: { signal: AbortSignal }): Promise<Forecast> {
    const reply = (await this.http.getJson(
      `/weather?city=${encodeURIComponent(params.city)}`,
      context.signal,
    )) as { temperatureC: number; conditions: string };
    const unit = params.unit ?? 'C';
    const temperature =
      unit === 'C' ? reply.temperatureC : Math.round(reply.temperatureC * 1.8 + 32);
    return { city: params.city, temperature, unit, conditions: reply.conditions };
  }
}
