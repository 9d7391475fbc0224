import { spawn } from 'node:child_process';
import { CliUsageError } from '../../errors/cli-usage.error';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';

/** Options of `ideact dev`. */
export interface DevCommandOptions {
  ideas?: string;
  config?: string;
  /** The experiments folder the Evals page shows (default .ideact/evals). */
  evals?: string;
  port?: string;
  host?: string;
  open?: boolean;
  /** `--model`: the model by prefix (`anthropic:claude-sonnet-4-5`) or a name for the openai provider. */
  model?: string;
}

/**
 * `ideact dev [--ideas DIR] [--config FILE] [--port 4111] [--host H] [--open]`: serves the local
 * playground (docs/playground.md) until SIGINT or SIGTERM; prints its URL and the provider it runs on.
 */
export async function devCommand(
  options: DevCommandOptions,
  io: CliIo,
  signals: { once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void } = process,
): Promise<ExitCodeValue> {
  if (options.ideas === undefined && options.config === undefined && options.evals === undefined) {
    throw new CliUsageError({
      option: '--ideas / --config',
      reason: 'the playground needs something to serve',
      fix: 'Pass --ideas DIR (a folder of Idea files), --config FILE (a module exporting a container), or both (or --evals DIR for the Evals page alone).',
    });
  }
  const port = portOf(options.port);
  const host = options.host ?? '127.0.0.1';
  const { startDevServer } = await import('../../dev/start-dev-server');
  const { providerLine } = await import('../../dev/playground-setup');
  let server;
  try {
    server = await startDevServer({
      ...(options.ideas === undefined ? {} : { ideasDir: options.ideas }),
      ...(options.config === undefined ? {} : { config: options.config }),
      ...(options.evals === undefined ? {} : { evalsDir: options.evals }),
      host,
      port,
      env: io.env,
      ...(options.model === undefined ? {} : { model: options.model }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CliUsageError({
        option: code === 'EADDRNOTAVAIL' ? '--host' : '--port',
        reason: `cannot listen on ${host}:${port} (${code})`,
        fix: 'Pass another --port (0 picks a free one), or stop what uses this one.',
      });
    }
    throw error;
  }
  io.stdout(`ideact dev: ${server.url} (${providerLine(server.provider)})\n`);
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    io.stderr(
      `ideact dev: warning: bound to ${host}, not loopback; it still answers only requests addressed to ${host} or a loopback name\n`,
    );
  }
  for (const file of server.skipped) {
    io.stderr(`ideact dev: skipped ${file.file}: not an Idea (${file.reason.split('\n')[0]})\n`);
  }
  io.stderr('ideact dev: Ctrl-C stops it\n');
  if (options.open === true) openBrowser(server.url, io);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    signals.once('SIGINT', () => resolve('SIGINT'));
    signals.once('SIGTERM', () => resolve('SIGTERM'));
  });
  io.stderr(`ideact dev: ${signal}: stopping\n`);
  await server.close();
  return ExitCode.ok;
}

/** `--port`: an integer 0..65535 (0 picks a free port); default 4111. */
function portOf(value: string | undefined): number {
  if (value === undefined) return 4111;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port > 65535) {
    throw new CliUsageError({
      option: '--port',
      reason: `expected a port number 0..65535, got "${value}"`,
      fix: 'Pass --port 4111, or --port 0 for any free port.',
    });
  }
  return port;
}

/** Opens `url` with the platform's opener (open, start, xdg-open); a note on stderr when there is none. */
function openBrowser(url: string, io: CliIo): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const note = (): void =>
    io.stderr(`ideact dev: could not open a browser (${command}); open ${url} yourself\n`);
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', note);
    child.unref();
  } catch {
    note();
  }
}
