import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type { McpHttpServer, McpStdioServer } from 'ideact';

/**
 * The MCP servers the client tests talk to: the reference servers (devDependencies) and a local
 * fixture, over stdio (ideact starts them) or Streamable HTTP (started here on a 127.0.0.1 port).
 */
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const CHANGING = path.join(__dirname, 'fixtures', 'changing-tools-server.mjs');

/** The everything server over stdio. */
export function everythingStdio(): McpStdioServer {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'] };
}

/** The filesystem server allowed to read and write `directory`. */
export function filesystemStdio(directory: string): McpStdioServer {
  return { command: process.execPath, args: [FILESYSTEM, directory] };
}

/** The fixture with the changing tool list, over stdio. */
export function changingStdio(): McpStdioServer {
  return { command: process.execPath, args: [CHANGING, 'stdio'] };
}

/** A server process listening on HTTP, and how to stop it. */
export interface HttpServerProcess {
  server: McpHttpServer;
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now (the everything server takes its port from PORT). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The everything server on a free port (it reads PORT), in `streamableHttp` mode (endpoint /mcp) or
 * the old `sse` mode (GET /sse); resolves once it listens.
 */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForOutput(child, 'stderr', /listening on port|running on port/);
  return { server: { url: `http://127.0.0.1:${port}/mcp` }, stop: () => stop(child) };
}

/** The changing-tools fixture over Streamable HTTP (it picks its port and prints it). */
export async function startChangingHttp(): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [CHANGING, 'http'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const line = await waitForOutput(child, 'stdout', /PORT (\d+)/);
  const port = /PORT (\d+)/.exec(line)![1];
  return { server: { url: `http://127.0.0.1:${port}/mcp` }, stop: () => stop(child) };
}

function waitForOutput(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  pattern: RegExp,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`server did not print ${pattern} within 10 s: ${seen}`));
    }, 10_000);
    child[stream]!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before printing ${pattern}: ${seen}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}
