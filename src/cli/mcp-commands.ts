import { Option, type Command } from 'commander';
import type { CliIo } from './cli-io';
import type { McpServeOptions } from './commands/mcp-serve-command';
import type { ExitCodeValue } from './exit-codes';
import { MODEL_HELP } from './model-option-help';

/** Runs a command's handler and stores its exit code (program.ts's `run`). */
type RunHandler = (load: () => Promise<ExitCodeValue>) => Promise<void>;

/**
 * The MCP commands (issue 19): `ideact mcp serve`. Kept apart from program.ts, which registers them
 * with one call; the handler loads the MCP SDK on first use, so `ideact --help` stays fast.
 */
export function registerMcpCommands(program: Command, io: CliIo, run: RunHandler): void {
  const mcp = program
    .command('mcp')
    .description('Model Context Protocol: serve ideact Tools and Ideas to MCP clients.');
  mcp
    .command('serve')
    .description(
      'Serve a folder of Ideas (each a tool) and/or a config’s Tools over MCP: stdio by default, Streamable HTTP with --http.',
    )
    .option('--ideas <dir>', 'a folder of Ideas; each becomes a tool named by its file name')
    .option(
      '--config <file>',
      'a .js/.cjs/.mjs module, or .ts/.mts/.cts with tsx installed, exporting a container (createContainer) or its config',
    )
    .option(
      '--http <port>',
      'serve Streamable HTTP on this port (0: any free port) instead of stdio',
    )
    .option('--host <host>', 'the interface --http binds (default 127.0.0.1: this machine only)')
    .option('--token <token>', 'HTTP requests must send `Authorization: Bearer <token>`')
    .option(
      '--allowed-origin <origin>',
      'an Origin HTTP accepts besides loopback ones (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(
      new Option(
        '--provider <name>',
        'openai or offline (default: the config’s; else openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline)',
      ).choices(['openai', 'offline']),
    )
    .option('--model <name>', MODEL_HELP)
    .option(
      '--no-approval',
      'run tools that need approval without asking anyone (default: ask the client by elicitation, and never run them unasked)',
    )
    .option(
      '--module-root <dir>',
      'directory `_module` paths resolve in and may not leave (default: the --ideas folder, else the current directory)',
    )
    .addHelpText('after', MCP_SERVE_HELP)
    .action(async (options: McpServeOptions) =>
      run(async () => (await import('./commands/mcp-serve-command')).mcpServeCommand(options, io)),
    );
}

const MCP_SERVE_HELP = `
Examples:
  ideact mcp serve --ideas ./ideas
  ideact mcp serve --config ./ideact.config.js --ideas ./ideas --provider openai --model gpt-4.1-mini
  ideact mcp serve --config ./ideact.config.ts   # TypeScript: loaded with your project's tsx
  ideact mcp serve --ideas ./ideas --http 3001 --token "$MCP_TOKEN"

On stdio, stdout carries only the protocol; messages go to stderr. See docs/mcp.md.`;
