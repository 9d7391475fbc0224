import { Option, type Command } from 'commander';
import type { CliIo } from './cli-io';
import type { ExitCodeValue } from './exit-codes';
import type { RunsListOptions } from './commands/runs-command';
import type { RunsEnqueueOptions, RunsResumeOptions } from './commands/runs-resume-command';
import type { RunStoreOptions } from './commands/run-store-options';
import type { WorkerCommandOptions } from './commands/worker-command';
import { MODEL_HELP } from './model-option-help';

/** Runs a command's handler and stores its exit code (program.ts's `run`). */
type RunHandler = (load: () => Promise<ExitCodeValue>) => Promise<void>;

/**
 * The commands of durable runs (issue 18): `ideact worker` and `ideact runs list|show|cancel|resume|
 * enqueue|import`. Kept apart from program.ts, which registers them with one call; each handler loads its
 * modules on first use.
 */
export function registerDurableCommands(program: Command, io: CliIo, run: RunHandler): void {
  program
    .command('worker')
    .description(
      'Execute queued runs as durable DBOS workflows on PostgreSQL until Ctrl-C (any number of workers may share the queue).',
    )
    .option('--database-url <url>', 'the PostgreSQL database of the runs and the queue (required)')
    .option('--idea <file>', 'the Idea every run uses')
    .option('--ideas <dir>', 'a folder of Ideas; each run names its Idea by file name')
    .option(
      '--config <file>',
      'a module exporting a container or a configuration (.js, .mjs, .ts through your tsx): runs enqueued with agent name "agent" (or none) run its agent',
    )
    .option('--concurrency <n>', 'runs this worker executes at the same time (default 4)')
    .option(
      '--global-concurrency <n>',
      'runs all workers execute at the same time (default: no limit)',
    )
    .option(
      '--polling-interval <ms>',
      'how often the queue is polled for new runs, for every worker of the queue (default 1000; a run enqueued by ideact and a freed slot wake a worker at once, the poll is the fallback)',
    )
    .option(
      '--takeover-interval <ms>',
      "how often this worker scans for a dead worker's runs and reads again which worker it watches (default 5000; a watched worker's death is seen at once)",
    )
    .addOption(providerOption())
    .option('--model <name>', MODEL_HELP)
    .option('--module-root <dir>', MODULE_ROOT_HELP)
    .addOption(databaseOptions.queue())
    .addOption(databaseOptions.schema())
    .addOption(databaseOptions.systemSchema())
    .addHelpText('after', WORKER_HELP)
    .action(async (options: WorkerCommandOptions) =>
      run(async () => (await import('./commands/worker-command')).workerCommand(options, io)),
    );

  const runs = program
    .command('runs')
    .description(
      'List, show, cancel, resume, enqueue and import stored runs (the FileRunStore at .ideact/runs, or --database-url).',
    )
    .addHelpText('after', RUNS_HELP);

  withStore(
    runs.command('list').description('List runs, newest first (top-level runs unless --all).'),
  )
    .option(
      '--status <status>',
      'only runs with this status (running, awaiting_approval, completed, …)',
    )
    .option('--limit <n>', 'at most this many (default 50)')
    .option('--all', 'also nested runs')
    .option('--experiment <id>', 'only the case runs of this eval experiment (ideact eval)')
    .action(async (options: RunsListOptions) =>
      run(async () => (await import('./commands/runs-command')).runsListCommand(options, io)),
    );

  withStore(
    runs
      .command('show')
      .description('Show a run: status, stop reason, task, usage, output, interruptions.')
      .argument('<id>', 'the run id'),
  ).action(async (id: string, options: RunStoreOptions) =>
    run(async () => (await import('./commands/runs-command')).runsShowCommand(id, options, io)),
  );

  withStore(
    runs
      .command('cancel')
      .description('Cancel a run (with --database-url also its workflow: a worker stops it).')
      .argument('<id>', 'the run id'),
  ).action(async (id: string, options: RunStoreOptions) =>
    run(async () => (await import('./commands/runs-command')).runsCancelCommand(id, options, io)),
  );

  withStore(
    runs
      .command('import')
      .description(
        'Store a state file (`--state`, also the older whole-state format) as a run of the store; prints its run id.',
      )
      .argument('<file>', 'the state file (left as it is)'),
  ).action(async (file: string, options: RunStoreOptions) =>
    run(async () => (await import('./commands/runs-command')).runsImportCommand(file, options, io)),
  );

  withStore(
    runs
      .command('resume')
      .description(
        'Continue a stopped or cancelled run: here with --idea (file store), or on the workers (--database-url).',
      )
      .argument('<id>', 'the run id'),
  )
    .option('--approve <callId>', 'approve a Call the run awaits (repeatable)', collect, [])
    .option('--reject <callId=reason>', 'reject a Call the run awaits (repeatable)', collect, [])
    .option(
      '--edit <callId=json>',
      'run a Call the run awaits with these params (repeatable)',
      collect,
      [],
    )
    .option('--max-turns <n>', 'the run may go on to this many turns in all')
    .option('--idea <file>', 'file store: the Idea the run uses')
    .option('--ideas <dir>', 'file store: a folder of Ideas (with --agent NAME)')
    .option('--agent <name>', 'file store with --ideas: the Idea the run uses, by file name')
    .addOption(providerOption())
    .option('--model <name>', MODEL_HELP)
    .option('--module-root <dir>', MODULE_ROOT_HELP)
    .option('--wait', 'with --database-url: wait for the workers to stop the run and print it')
    .action(async (id: string, options: RunsResumeOptions) =>
      run(async () =>
        (await import('./commands/runs-resume-command')).runsResumeCommand(id, options, io),
      ),
    );

  withStore(
    runs
      .command('enqueue')
      .description('Put a run of an Idea on the workers’ queue (--database-url).')
      .argument('<idea>', 'the Idea file (.json)'),
  )
    .option('--task <text>', 'the task, appended to the Idea’s context as a user message')
    .option('--input <json>', 'the input (params) as JSON')
    .option('--max-turns <n>', 'stop after this many LLM turns')
    .option('--agent <name>', 'the name workers know the Idea by (default: its file name)')
    .option('--wait', 'wait for the workers to stop the run and print it')
    .action(async (idea: string, options: RunsEnqueueOptions) =>
      run(async () =>
        (await import('./commands/runs-resume-command')).runsEnqueueCommand(idea, options, io),
      ),
    );
}

/** The store options every `runs` subcommand takes. */
function withStore(command: Command): Command {
  return command
    .option('--dir <dir>', 'the FileRunStore folder (default .ideact/runs)')
    .option('--database-url <url>', 'use the workers’ PostgreSQL store (and queue) instead')
    .addOption(databaseOptions.schema())
    .addOption(databaseOptions.systemSchema())
    .addOption(databaseOptions.queue())
    .option('--json', 'print JSON');
}

const databaseOptions = {
  schema: () => new Option('--schema <name>', 'the PostgresRunStore schema (default ideact)'),
  systemSchema: () =>
    new Option('--system-schema <name>', 'the schema of DBOS’s system tables (default dbos)'),
  queue: () => new Option('--queue <name>', 'the worker queue (default ideact-runs)'),
};

function providerOption(): Option {
  return new Option(
    '--provider <name>',
    'openai or offline (default: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline)',
  ).choices(['openai', 'offline']);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

const MODULE_ROOT_HELP =
  "directory `_module` and @Module paths resolve in and may not leave (default: each Idea's folder)";

const WORKER_HELP = `
Examples:
  ideact worker --database-url postgres://postgres@127.0.0.1:5432/app --ideas ideas
  ideact runs enqueue ideas/lyricist.json --database-url postgres://postgres@127.0.0.1:5432/app --input '{"topic":"rain"}'

Each agent step is one DBOS step; a worker killed mid-run is taken over by another one (see docs/workers.md).`;

const RUNS_HELP = `
Examples:
  ideact runs list
  ideact runs show run_1a2b3c4d5e6f --json
  ideact runs resume run_1a2b3c4d5e6f --idea ideas/bank.json --approve 1:0
  ideact runs cancel run_1a2b3c4d5e6f --database-url postgres://postgres@127.0.0.1:5432/app
  ideact runs import runs/oslo.json --database-url postgres://postgres@127.0.0.1:5432/app`;
