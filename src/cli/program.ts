import { Command, CommanderError, Option } from 'commander';
import { bothNames, bothNamesInCode } from '../protocol/protocol-vocabulary';
import type { CliIo } from './cli-io';
import type { DevCommandOptions } from './commands/dev-command';
import type { ServeCommandOptions } from './commands/serve-command';
import type { RunCommandOptions } from './commands/run-command';
import { registerDurableCommands } from './durable-commands';
import { registerEvalCommands } from './eval-commands';
import { registerMcpCommands } from './mcp-commands';
import { ExitCode, type ExitCodeValue } from './exit-codes';
import { packageVersion } from './package-version';
import { reportError } from './report-error';
import { MODEL_HELP } from './model-option-help';

/**
 * Builds the `ideact` command line (commander). Only commander is loaded here: every command imports
 * its heavy modules (openai, json-schema-to-typescript, the runtime) inside its handler, so that
 * `ideact --help` starts fast. Each handler's exit code is stored in `result.exitCode`.
 */
export function createProgram(io: CliIo, result: { exitCode: ExitCodeValue }): Command {
  const program = new Command();
  program
    .name('ideact')
    .description(
      'Run, inspect, validate and generate typed classes from ideact Ideas (saved LLM requests).',
    )
    .version(packageVersion(), '-V, --version', 'print the ideact version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: (text, write) =>
        write(text.startsWith('error: ') ? `ideact: ${text.slice(7)}` : text),
    })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP);

  const run = async (load: () => Promise<ExitCodeValue>): Promise<void> => {
    try {
      result.exitCode = await load();
    } catch (error) {
      result.exitCode = reportError(error, io);
    }
  };

  program
    .command('run')
    .description(
      'Run an Idea as an agent: progress on stderr, the final output as JSON on stdout (or --json events).',
    )
    .argument('<idea>', 'the Idea file (.json) to run')
    .option('--input <json|@file>', 'the input (params) as JSON, or @path of a JSON file')
    .addOption(
      new Option(
        '--provider <name>',
        'openai or offline (default: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline)',
      ).choices(['openai', 'offline']),
    )
    .option('--model <name>', MODEL_HELP)
    .option('--max-turns <n>', 'stop after this many LLM turns')
    .option(
      '--state <file>',
      'keep the run in this state file (it names a one-run store in <file>.run/, one journal append per step)',
    )
    .option(
      '--resume <file>',
      'continue the run of this state file (an older whole-state file is imported into <file>.run/ once)',
    )
    .option('--module-root <dir>', moduleRootHelp("the Idea's folder"))
    .option(
      '--json',
      'print every run event as one JSON line on stdout (the output is in the last, run-end)',
    )
    .option('--trace <file>', "write the run's OpenTelemetry spans to this file as JSON lines")
    .addHelpText('after', RUN_HELP)
    .action(async (idea: string, options: RunCommandOptions) =>
      run(async () => (await import('./commands/run-command')).runCommand(idea, options, io)),
    );

  program
    .command('inspect')
    .description(
      'Print a saved run state as a readable tree: nodes, modules, calls, errors, usage.',
    )
    .argument('<state>', 'the state file written by `ideact run --state`')
    .action(async (state: string) =>
      run(async () => (await import('./commands/inspect-command')).inspectCommand(state, io)),
    );

  program
    .command('validate')
    .description(
      'Check Idea files: JSON, Idea structure, schemas, input message, modules (inside the root, no cycles).',
    )
    .argument('<ideas...>', 'Idea files (.json)')
    .option('--module-root <dir>', moduleRootHelp("each Idea's folder"))
    .action(async (ideas: string[], options: { moduleRoot?: string }) =>
      run(async () =>
        (await import('./commands/validate-command')).validateCommand(ideas, options, io),
      ),
    );

  program
    .command('codegen')
    .description(
      'Generate a typed Tool class per Idea (XInput/XOutput types, class-validator decorators).',
    )
    .argument('<paths...>', 'Idea files or directories (searched recursively for .json)')
    .requiredOption('--out <dir>', 'directory the .ts files are written to')
    .option(
      '--check',
      'write nothing; exit 1 and name the files that are stale or missing (for CI)',
    )
    .option(
      '--allow-remote-refs',
      'download http(s) $refs while generating types (default: off, a remote $ref is an error)',
    )
    .option('--module-root <dir>', CODEGEN_MODULE_ROOT_HELP)
    .action(
      async (
        paths: string[],
        options: { out: string; check?: boolean; moduleRoot?: string; allowRemoteRefs?: boolean },
      ) =>
        run(async () =>
          (await import('./commands/codegen-command')).codegenCommand(paths, options, io),
        ),
    );

  program
    .command('dev')
    .description(
      'Serve the local web playground: a form per Tool and Idea, live run trees, approvals, history.',
    )
    .option('--ideas <dir>', 'a folder of Idea files to serve (module paths resolve in it)')
    .option(
      '--config <file>',
      'a module exporting a container or a createContainer configuration (.ts/.mts/.cts with tsx installed)',
    )
    .option(
      '--evals <dir>',
      'the experiments `ideact eval` saved, shown on the Evals page (default .ideact/evals)',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '4111')
    .option('--host <host>', 'host to bind (default 127.0.0.1, loopback only)')
    .option('--open', "open the playground in the system's browser")
    .option('--model <name>', MODEL_HELP)
    .addHelpText('after', DEV_HELP)
    .action(async (options: DevCommandOptions) =>
      run(async () => (await import('./commands/dev-command')).devCommand(options, io)),
    );

  program
    .command('serve')
    .description(
      'Serve runs to apps over HTTP: start, stream (resumable), approve, cancel; the AI SDK useChat and AG-UI protocols.',
    )
    .option('--ideas <dir>', 'a folder of Idea files: each is a target by its name')
    .option(
      '--config <file>',
      'a module exporting a container or a configuration: its agent is the target "agent"',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '8080')
    .option('--host <host>', 'host to bind (default 127.0.0.1; another host needs --token)')
    .option('--token <secret>', 'the bearer token every request must send (or IDEACT_SERVE_TOKEN)')
    .option('--database-url <url>', 'keep runs and their events in PostgreSQL (PostgresRunStore)')
    .option('--schema <name>', "the PostgresRunStore's schema (default ideact)")
    .option('--dir <dir>', "the FileRunStore's folder (default .ideact/runs)")
    .option('--base-path <path>', 'serve the routes under this path (e.g. /api/agent)')
    .option('--cors-origin <origin...>', 'origins whose pages may call the server')
    .option('--max-concurrent-runs <n>', 'runs one principal may have running at once (default 4)')
    .option('--max-turns <n>', 'turn limit of every run')
    .option('--no-resume', 'do not drive again the runs a killed server left running')
    .addHelpText('after', SERVE_HELP)
    .action(async (options: ServeCommandOptions) =>
      run(async () => (await import('./commands/serve-command')).serveCommand(options, io)),
    );

  registerDurableCommands(program, io, run);
  registerMcpCommands(program, io, run);
  registerEvalCommands(program, io, run);

  return program;
}

/**
 * Parses `argv` (without `node` and the script) and runs the command. Resolves to the exit code:
 * commander's usage errors (unknown option, missing argument) are 2, `--help`/`--version` are 0.
 */
export async function runCli(argv: string[], io: CliIo): Promise<ExitCodeValue> {
  const result: { exitCode: ExitCodeValue } = { exitCode: ExitCode.ok };
  const program = createProgram(io, result);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return ExitCode.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      const done = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
      return done.includes(error.code) ? ExitCode.ok : ExitCode.usage;
    }
    return reportError(error, io);
  }
  return result.exitCode;
}

/**
 * One option, one meaning in run, validate and codegen (`moduleRoot` in code): module paths resolve
 * relative to the Idea named on the command line, like a relative import, unless it is given.
 */
function moduleRootHelp(byDefault: string): string {
  return `directory ${bothNamesInCode('delegateField')} and ${bothNames('delegateDecorator')} paths resolve in and may not leave (default: ${byDefault})`;
}

/** Codegen's module root: the root the generated `@Module` paths are relative to. */
const CODEGEN_MODULE_ROOT_HELP = `${moduleRootHelp('the folder of the Idea or of the directory given; for several, their common folder')}; give the same moduleRoot to createContainer`;

const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    the run failed or ended without an output, validation found problems, codegen --check found stale files,
       an eval's threshold failed or a case regressed against --baseline
  2    usage error or bad input (unknown option, missing file, invalid JSON, missing API key)
  130  interrupted (Ctrl-C); \`run\` saves its state first

Set DEBUG=ideact to print stack traces.`;

const DEV_HELP = `
Examples:
  ideact dev --ideas examples/music
  ideact dev --config dist/tools.js --ideas ideas --port 0 --open
  ideact dev --config ideact.config.ts        # TypeScript: loaded with your project's tsx

Runs use --model (or IDEACT_MODEL) by its prefix, e.g. anthropic:claude-sonnet-4-5 with
@ai-sdk/anthropic installed; else OPENAI_API_KEY / OPENAI_BASE_URL when set; else the offline
provider (placeholder answers, said on the page). Runs are stored in .ideact/runs. The server
answers only its own pages (Host and Origin checked) and serves no file but its built assets.`;

const SERVE_HELP = `
Examples:
  ideact serve --ideas ideas --port 8080
  ideact serve --config dist/agent.js --host 0.0.0.0 --token "$TOKEN" --database-url postgres://…/app
  curl -N -H 'Accept: text/event-stream' -H 'Content-Type: application/json' \\
       -d '{"idea":"lyricist","input":{"topic":"rain"}}' http://127.0.0.1:8080/runs

Routes (docs/serve.md): POST /runs, GET /runs, GET /runs/:id, POST /runs/:id/cancel,
POST /runs/:id/approvals, GET /runs/:id/events (Last-Event-ID resumes), POST /chat (useChat),
POST /ag-ui (AG-UI). Runs use OPENAI_API_KEY / OPENAI_BASE_URL when set, else the offline provider.`;

const RUN_HELP = `
Examples:
  ideact run ideas/lyricist.json --input '{"topic":"rain"}'
  ideact run ideas/producer.json --input @task.json --state run.json --max-turns 8
  ideact run ideas/producer.json --resume run.json
  ideact run ideas/lyricist.json --json > events.jsonl
  ideact run ideas/producer.json --trace spans.jsonl

Ctrl-C stops the run after the current step, saves the state (to --state, or <idea>.state.json)
and exits with 130; continue it with --resume.`;
