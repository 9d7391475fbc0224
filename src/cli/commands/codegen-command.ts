import * as path from 'node:path';
import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';

/** Options of `ideact codegen`. */
export interface CodegenCommandOptions {
  /** Output directory. */
  out: string;
  /** Compare instead of writing. */
  check?: boolean;
  /** Root of the `@Module` paths. */
  moduleRoot?: string;
  /** Download http(s) `$ref`s (off by default: codegen stays offline). */
  allowRemoteRefs?: boolean;
}

/**
 * `ideact codegen <paths...> --out <dir> [--check] [--allow-remote-refs]`: writes (or checks) one `.ts` file per Idea, prints
 * one line per file on stdout and the warnings (file and JSON path) on stderr. With `--check`, exit 1
 * when a file is stale or missing.
 */
export async function codegenCommand(
  paths: string[],
  options: CodegenCommandOptions,
  io: CliIo,
): Promise<ExitCodeValue> {
  const { generateFromIdeas } = await import('../../codegen/generate-from-ideas');
  const result = await generateFromIdeas(paths, {
    outDir: options.out,
    check: options.check === true,
    moduleRoot: options.moduleRoot,
    allowRemoteRefs: options.allowRemoteRefs === true,
  });
  for (const warning of result.warnings) {
    io.stderr(`warning: ${warning.ideaFile} at ${warning.jsonPath}: ${warning.message}\n`);
  }
  for (const file of result.files) {
    io.stdout(
      `${file.status.padEnd(9)} ${relative(file.outFile)}  (${file.className} from ${relative(file.ideaFile)})\n`,
    );
  }
  if (options.check === true && result.stale.length > 0) {
    io.stderr(
      `ideact: ${result.stale.length} generated file(s) are stale or missing: ${result.stale.map(relative).join(', ')}. ` +
        'Run `ideact codegen` without --check to update them.\n',
    );
    return ExitCode.failure;
  }
  return ExitCode.ok;
}

function relative(file: string): string {
  const shown = path.relative(process.cwd(), file);
  return shown === '' || shown.startsWith('..') ? file : shown;
}
