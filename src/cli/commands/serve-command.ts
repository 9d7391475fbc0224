import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliUsageError } from '../../errors/cli-usage.error';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { openRunStore, positiveInteger } from './run-store-options';

/** Options of `ideact serve`. */
export interface ServeCommandOptions {
  ideas?: string;
  config?: string;
  port?: string;
  host?: string;
  token?: string;
  databaseUrl?: string;
  schema?: string;
  dir?: string;
  basePath?: string;
  corsOrigin?: string[];
  maxConcurrentRuns?: string;
  maxTurns?: string;
  resume?: boolean;
}

/** Hosts that only this machine reaches (a token is optional there). */
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * `ideact serve [--ideas DIR] [--config FILE] [--port 8080] [--host H] [--token T]
 * [--database-url URL | --dir DIR]`: serves runs to apps over HTTP (`createRunHandler`, docs/serve.md)
 * until SIGINT or SIGTERM. At start it drives again the served runs a killed server left running
 * (`--no-resume` leaves them: with several servers on one store, let one of them do it).
 */
export async function serveCommand(
  options: ServeCommandOptions,
  io: CliIo,
  signals: { once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void } = process,
): Promise<ExitCodeValue> {
  if (options.ideas === undefined && options.config === undefined) {
    throw new CliUsageError({
      option: '--ideas / --config',
      reason: 'the server needs something to serve',
      fix: 'Pass --ideas DIR (a folder of Idea files), --config FILE (a module exporting a container), or both.',
    });
  }
  const host = options.host ?? '127.0.0.1';
  const token = nonEmpty(options.token) ?? nonEmpty(io.env.IDEACT_SERVE_TOKEN);
  if (token === undefined && !LOOPBACK.includes(host)) {
    throw new CliUsageError({
      option: '--host',
      reason: `binding ${host} (not loopback) without a token would let anyone start runs`,
      fix: 'Pass --token <secret> (or set IDEACT_SERVE_TOKEN), or keep --host 127.0.0.1; for your own auth, mount createRunHandler with an authorize hook.',
    });
  }
  const port = portOf(options.port);
  const store = await openRunStore({
    ...(options.dir === undefined ? {} : { dir: options.dir }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  });
  const { createRunHandler } = await import('../../serve/create-run-handler');
  const { toNodeListener } = await import('../../serve/node-listener');
  const { choosePlaygroundProvider, loadConfigContainer, providerInfo, providerLine } =
    await import('../../dev/playground-setup');
  const provider = choosePlaygroundProvider(io.env);
  const container =
    options.config === undefined ? undefined : await loadConfigContainer(options.config, provider);
  const maxConcurrentRuns = positiveInteger(options.maxConcurrentRuns, '--max-concurrent-runs');
  const maxTurns = positiveInteger(options.maxTurns, '--max-turns');
  const handler = createRunHandler(
    {
      ...(options.ideas === undefined ? {} : { ideasDir: options.ideas }),
      ...(container === undefined ? {} : { container }),
      provider,
      store,
    },
    {
      ...(token === undefined ? {} : { token }),
      ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
      ...(options.corsOrigin === undefined ? {} : { corsOrigins: options.corsOrigin }),
      ...(maxConcurrentRuns === undefined ? {} : { maxConcurrentRuns }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      env: io.env,
      onError: (error) =>
        io.stderr(`ideact serve: ${error instanceof Error ? error.message : String(error)}\n`),
    },
  );
  const { targets, skipped } = await handler.ready();
  const { allowedHosts } = await import('../../dev/request-guard');
  const listener = toNodeListener(handler);
  // Without a token, a page on another site could reach a loopback server by DNS rebinding: only
  // requests that name this server (a loopback name and its port) in Host are answered.
  let hosts: ReadonlySet<string> = new Set();
  const server = createServer((request, response) => {
    if (token === undefined && !hosts.has((request.headers.host ?? '').toLowerCase())) {
      response.writeHead(403, { 'content-type': 'application/json; charset=utf-8' });
      response.end(
        JSON.stringify({
          error: {
            code: 'FORBIDDEN_HOST',
            message: `Host "${request.headers.host ?? ''}" is not this server: without a token it answers only requests addressed to ${[...hosts].join(', ')}.`,
          },
        }),
      );
      return;
    }
    listener(request, response);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await handler.close();
    await store.close?.();
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError({
      option: code === 'EADDRNOTAVAIL' ? '--host' : '--port',
      reason: `cannot listen on ${host}:${port} (${code ?? String(error)})`,
      fix: 'Pass another --port (0 picks a free one), or stop what uses this one.',
    });
  }
  const bound = (server.address() as AddressInfo).port;
  hosts = allowedHosts(host, bound);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const shownProvider = providerInfo(provider);
  io.stdout(
    `ideact serve: http://${shownHost}:${bound}${options.basePath ?? ''} (${providerLine(shownProvider)})\n`,
  );
  io.stderr(
    `ideact serve: serving ${targets.join(', ')}${token === undefined ? '; no token: loopback only' : ''}\n`,
  );
  for (const file of skipped) {
    io.stderr(`ideact serve: skipped ${file.file}: not an Idea (${file.reason.split('\n')[0]})\n`);
  }
  if (options.resume !== false) {
    const resumed = await handler.resumeInterrupted();
    if (resumed.length > 0) io.stderr(`ideact serve: resumed ${resumed.join(', ')}\n`);
  }
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    signals.once('SIGINT', () => resolve('SIGINT'));
    signals.once('SIGTERM', () => resolve('SIGTERM'));
  });
  io.stderr(`ideact serve: ${signal}: stopping\n`);
  server.closeIdleConnections();
  await handler.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await store.close?.();
  return ExitCode.ok;
}

/** `--port`: an integer 0..65535 (0 picks a free port); default 8080. */
function portOf(value: string | undefined): number {
  if (value === undefined) return 8080;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port > 65535) {
    throw new CliUsageError({
      option: '--port',
      reason: `expected a port number 0..65535, got "${value}"`,
      fix: 'Pass --port 8080, or --port 0 for any free port.',
    });
  }
  return port;
}

/** The value, or undefined when it is absent or empty (an empty token protects nothing). */
function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
