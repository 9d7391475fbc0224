import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';

/**
 * `ideact validate <ideas...>`: prints `ok <file>` (with notes) or one line per problem
 * (`<file> at <json path>: <message>`). Exit 1 when any problem is found, 2 when a file is missing or not JSON.
 */
export async function validateCommand(
  files: string[],
  options: { moduleRoot?: string },
  io: CliIo,
): Promise<ExitCodeValue> {
  const { validateIdeas } = await import('../validate-ideas');
  const reports = await validateIdeas(files, { moduleRoot: options.moduleRoot });
  let problems = 0;
  for (const report of reports) {
    if (report.problems.length === 0) {
      io.stdout(
        `ok      ${report.file}${report.notes.length > 0 ? ` (${report.notes.join('; ')})` : ''}\n`,
      );
      continue;
    }
    io.stdout(`invalid ${report.file}\n`);
    for (const problem of report.problems) {
      problems += 1;
      const where =
        problem.jsonPath === '' ? problem.file : `${problem.file} at ${problem.jsonPath}`;
      const [first, ...rest] = problem.message.split('\n');
      // Errors from the protocol layer already name the file and path; do not say it twice.
      const line = first!.includes(problem.file) ? first : `${where}: ${first}`;
      io.stderr(`ideact: ${line}\n${rest.map((detail) => `  ${detail}\n`).join('')}`);
    }
  }
  if (problems === 0) return ExitCode.ok;
  return reports.some((report) => !report.readable) ? ExitCode.usage : ExitCode.failure;
}
