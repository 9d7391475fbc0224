import type { ContainerInstance } from 'typedi';
import type { IdeactConfig } from '../../container/ideact-config';
import { CliUsageError } from '../../errors/cli-usage.error';
import type { McpServerSource } from '../../mcp/server/create-mcp-server';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';
import { packageVersion } from '../package-version';

/** Options of `ideact mcp serve`. */
export interface McpServeOptions {
  /** A folder of Ideas, each served as a module tool. */
  ideas?: string;
  /** A module exporting a container (createContainer) or an IdeactConfig, or a function making one. */
  config?: string;
  /** Serve Streamable HTTP on this port instead of stdio. */
  http?: string;
  /** The interface HTTP binds (default 127.0.0.1). */
  host?: string;
  /** Bearer token HTTP requests must send. */
  token?: string;
  /** Further origins HTTP accepts besides loopback ones. */
  allowedOrigin?: string[];
  provider?: string;
  model?: string;
  moduleRoot?: string;
  /** `--no-approval` sets it false: tools that need approval run without asking (warned at start). */
  approval?: boolean;
}

/**
 * `ideact mcp serve`: serves a config's Tools and/or a folder's Ideas over MCP, on stdio (default:
 * stdout carries only the protocol, messages go to stderr) or Streamable HTTP (`--http PORT`), until
 * the client disconnects (stdio) or Ctrl-C.
 */
export async function mcpServeCommand(options: McpServeOptions, io: CliIo): Promise<ExitCodeValue> {
  if (options.ideas === undefined && options.config === undefined) {
    throw new CliUsageError({
      option: '--ideas / --config',
      reason: 'nothing to serve',
      fix: 'Pass --ideas DIR (a folder of Ideas) and/or --config FILE (a module exporting a container or config).',
    });
  }
  const port = options.http === undefined ? undefined : parsePort(options.http);
  const source = await sourceOf(options, io);
  const { createMcpServer } = await import('../../mcp/server/create-mcp-server');
  const server = await createMcpServer(source, {
    version: packageVersion(),
    approval: options.approval === false ? 'skip' : 'ask',
  });
  const names = server.listTools().map((tool) => tool.name);

  if (port === undefined) {
    const connection = await server.serveStdio();
    io.stderr(`ideact mcp serve: serving ${names.join(', ')} on stdio\n`);
    const closed = new Promise<void>((resolve) => {
      connection.onclose = () => resolve();
      // The client closing stdin ends the session (StdioServerTransport does not watch for it).
      process.stdin.once('end', () => resolve());
    });
    const signal = await Promise.race([closed.then(() => undefined), stopSignal()]);
    if (signal !== undefined) io.stderr(`ideact mcp serve: ${signal}: stopping\n`);
    await server.close();
    return signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.ok;
  }

  if (
    options.host !== undefined &&
    !LOOPBACK_HOSTS.has(options.host) &&
    options.token === undefined
  ) {
    io.stderr(
      `ideact mcp serve: warning: --host ${options.host} lets other machines call these tools and no --token is set; pass --token to require one.\n`,
    );
  }
  const endpoint = await server.serveHttp({
    port,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedOrigin === undefined ? {} : { allowedOrigins: options.allowedOrigin }),
  });
  io.stderr(
    `ideact mcp serve: serving ${names.join(', ')} at ${endpoint.url.href}` +
      `${options.token === undefined ? '' : ' (bearer token required)'} until Ctrl-C\n`,
  );
  const signal = await stopSignal();
  io.stderr(`ideact mcp serve: ${signal}: stopping\n`);
  await server.close();
  return signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.ok;
}

/** What to serve: the config's container, or its config (plus --ideas), or just the Ideas folder. */
async function sourceOf(options: McpServeOptions, io: CliIo): Promise<McpServerSource> {
  const { isContainer } = await import('../../container/config-module');
  const loaded = options.config === undefined ? undefined : await loadConfig(options.config);
  if (loaded !== undefined && isContainer(loaded)) {
    if (options.ideas !== undefined || options.provider !== undefined) {
      throw new CliUsageError({
        option: '--config',
        reason: `${options.config} exports a container, which already has its Tools and provider`,
        fix: 'Drop --ideas / --provider, or export a config object (createContainer’s argument) instead.',
      });
    }
    return loaded;
  }
  const config = loaded as IdeactConfig | undefined;
  const provider =
    config?.provider !== undefined && options.provider === undefined
      ? config.provider
      : (await (await import('./select-provider')).selectProvider(options, io)).provider;
  const moduleRoot = options.moduleRoot ?? config?.moduleRoot;
  if (options.ideas === undefined) {
    const { createContainer } = await import('../../container/create-container');
    return createContainer({
      ...(config as IdeactConfig),
      provider,
      ...(moduleRoot === undefined ? {} : { moduleRoot }),
    });
  }
  return {
    ideasDir: options.ideas,
    provider,
    ...(config === undefined ? {} : { tools: config.tools }),
    ...(config?.activities === undefined ? {} : { activities: config.activities }),
    ...(moduleRoot === undefined ? {} : { moduleRoot }),
  };
}

/** Loads `--config FILE` (see `loadConfigModule`): its container or its config, else a usage error. */
async function loadConfig(file: string): Promise<ContainerInstance | IdeactConfig> {
  const { loadConfigModule } = await import('../../container/config-module');
  const loaded = await loadConfigModule(file);
  if (loaded.kind === 'container') return loaded.container;
  if (loaded.kind === 'config') return loaded.config;
  if (loaded.kind === 'unloadable') {
    const error = loaded.error;
    throw new CliUsageError({
      option: '--config',
      reason: `cannot load ${file} (${error instanceof Error ? error.message : String(error)})`,
      fix: 'Pass a .js, .cjs or .mjs module (or .ts, .mts, .cts with tsx installed) that exports a container or a createContainer config.',
      cause: error,
    });
  }
  throw new CliUsageError({
    option: '--config',
    reason: `${file} exports neither a container nor a config with a "tools" array`,
    fix: 'Export `createContainer({ tools, activities, provider })` or its config object (module.exports = { tools: [...] }).',
  });
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** `--http PORT`: an integer 0–65535 (0 picks a free port). */
function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliUsageError({
      option: '--http',
      reason: `"${value}" is not a port`,
      fix: 'Pass a port number from 0 to 65535, e.g. --http 3001.',
    });
  }
  return port;
}

/** Resolves with the first SIGINT / SIGTERM. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
