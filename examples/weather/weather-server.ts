/**
 * A stand-in weather service on 127.0.0.1 so the example runs offline. `GET /weather?city=Oslo`
 * answers `{ temperatureC, conditions }` from a fixed table and counts the requests it served.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const TABLE: Record<string, { temperatureC: number; conditions: string }> = {
  oslo: { temperatureC: -3, conditions: 'light snow' },
  lisbon: { temperatureC: 19, conditions: 'sunny' },
  london: { temperatureC: 9, conditions: 'rain' },
};

/** A running stand-in service: its URL, the cities it was asked for, and `close()`. */
export interface WeatherServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Starts the stand-in service on an ephemeral port of 127.0.0.1. */
export async function startWeatherServer(): Promise<WeatherServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const city = url.searchParams.get('city') ?? '';
    requests.push(city);
    const entry = url.pathname === '/weather' ? TABLE[city.toLowerCase()] : undefined;
    response.writeHead(entry ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(entry ?? { error: `no weather for "${city}"` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
