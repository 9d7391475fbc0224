import { Option, type Command } from 'commander';
import type { CliIo } from './cli-io';
import type { EvalAddOptions } from './commands/eval-add-command';
import type { EvalCommandOptions } from './commands/eval-command';
import type { ExitCodeValue } from './exit-codes';

/** Runs a command's handler and stores its exit code (program.ts's `run`). */
type RunHandler = (load: () => Promise<ExitCodeValue>) => Promise<void>;

/**
 * The eval commands (issue 33): `ideact eval FILE` (the default subcommand `run`) and `ideact eval
 * add FILE --from-run ID`. Kept apart from program.ts, which registers them with one call; each
 * handler loads the eval harness on first use, so `ideact --help` stays fast.
 */
export function registerEvalCommands(program: Command, io: CliIo, run: RunHandler): void {
  const evals = program
    .command('eval')
    .description(
      'Run an eval file (cases, scorers, thresholds) against an Idea or an agent; add stored runs as cases.',
    )
    .addHelpText('after', EVAL_HELP);

  evals
    .command('run <file>', { isDefault: true })
    .description(
      'Run the eval FILE (*.eval.json, or .mjs/.ts exporting the spec): a table on stdout, progress on stderr; exit 1 when a threshold fails or a case regressed against --baseline.',
    )
    .option('--json <file>', 'write the results (the experiment) as JSON to this file')
    .option('--junit <file>', 'write JUnit XML for CI systems to this file')
    .option('--baseline <file>', 'compare with an earlier results file; a regression exits 1')
    .option(
      '--tolerance <x>',
      'how far a case score may fall below the baseline before it regressed (default: the spec’s, else 0)',
    )
    .option('--trials <n>', 'run each case N times (pass@k, mean and spread per case)')
    .option('--concurrency <n>', 'case runs at the same time (default: the spec’s, else 4)')
    .addOption(
      new Option(
        '--provider <name>',
        'openai or offline (default: the eval file’s provider, else openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline)',
      ).choices(['openai', 'offline']),
    )
    .option('--model <name>', 'the model name the target’s requests ask for')
    .option('--max-turns <n>', 'turn limit of each case run (default: the spec’s, else 10)')
    .option('--name <name>', 'the experiment’s name (default: the spec’s, else the file name)')
    .option('--dir <dir>', 'the FileRunStore the case runs go to (default .ideact/runs)')
    .option('--database-url <url>', 'store the case runs in PostgreSQL instead')
    .option('--schema <name>', 'the PostgresRunStore schema (default ideact)')
    .option(
      '--experiments <dir>',
      'where experiments are saved for the playground (default .ideact/evals)',
    )
    .action(async (file: string, options: EvalCommandOptions) =>
      run(async () => (await import('./commands/eval-command')).evalCommand(file, options, io)),
    );

  evals
    .command('add <file>')
    .description(
      'Add a stored run to an eval as a case: its input, and its output as `expected` (a .jsonl cases file, or a .json eval file).',
    )
    .requiredOption('--from-run <id>', 'the run id (see `ideact runs list`)')
    .option('--name <name>', 'the case name (default: the run id)')
    .option('--dir <dir>', 'the FileRunStore the run is in (default .ideact/runs)')
    .option('--database-url <url>', 'read the run from PostgreSQL instead')
    .option('--schema <name>', 'the PostgresRunStore schema (default ideact)')
    .action(async (file: string, options: EvalAddOptions) =>
      run(async () =>
        (await import('./commands/eval-add-command')).evalAddCommand(file, options, io),
      ),
    );
}

const EVAL_HELP = `
Examples:
  ideact eval examples/music/music.eval.ts
  ideact eval evals/support.eval.json --json results.json --junit junit.xml
  ideact eval evals/support.eval.json --baseline main-results.json --tolerance 0.05
  ideact eval evals/support.eval.json --trials 5 --concurrency 8 --provider openai --model gpt-4o
  ideact eval add evals/cases.jsonl --from-run run_1a2b3c4d5e6f

Each case runs as a run in the run store (.ideact/runs unless --dir/--database-url), tagged with the
experiment; the results are saved in .ideact/evals, where \`ideact dev\` shows them (Evals page).
Exit codes: 0 every threshold held and nothing regressed, 1 a threshold failed or a case regressed,
2 bad input (an eval file of the wrong shape names the JSON path at fault). See docs/evals.md.`;
