import type { OpenCall, RunHeader, RunSummary, StoredRun } from '../../runs/run-store';
import { workerRunResult, type WorkerRunResult } from '../../engine/worker-run-result';
import { seconds } from '../progress/progress-format';
import type { ResumeSuggestion } from './resume-suggestion';

/** What `ideact runs show --json` prints: the run's result plus its header and open Calls. */
export interface RunReport extends WorkerRunResult, Omit<RunHeader, 'runId'> {
  /** Calls started and not ended (a crash): they run again, attempt + 1, when the run goes on. */
  openCalls: OpenCall[];
  /** How to continue the run (a command, or the code API for a code-defined agent), if it can go on. */
  resume?: ResumeSuggestion;
}

/** The report of a stored run, with how to resume it when the store it was read from is known. */
export function runReport(stored: StoredRun, resume?: ResumeSuggestion): RunReport {
  const { runId, ...header } = stored.header;
  return {
    ...workerRunResult(runId, stored.state, stored.status),
    ...header,
    openCalls: stored.openCalls,
    ...(resume === undefined ? {} : { resume }),
  };
}

/** `ideact runs show` as text: status, stop reason, task, usage, output or error, interruptions. */
export function formatRunReport(report: RunReport): string {
  const lines: string[] = [];
  const row = (label: string, value: string): void => {
    lines.push(`${label.padEnd(10)}${value}`);
  };
  row('run', report.runId);
  row('status', report.status);
  if (report.stopReason !== undefined) row('stopped', report.stopReason);
  if (report.task !== undefined) row('task', oneLine(report.task, 100));
  if (report.parentRunId !== undefined) {
    row('parent', `${report.parentRunId} (Call ${report.parentCallId ?? '?'})`);
  }
  row('created', report.createdAt);
  const usage = report.usage;
  row(
    'usage',
    `${usage.steps} step(s), ${usage.turns} turn(s), ${usage.inputTokens} in / ${usage.outputTokens} out tokens, ${seconds(usage.elapsedMs)}`,
  );
  if (report.output !== null) row('output', oneLine(JSON.stringify(report.output), 200));
  if (report.error !== undefined) row('error', `${report.error.code}: ${report.error.message}`);
  for (const failed of report.failedCalls) {
    row(
      'failed',
      `${failed.callId} ${failed.tool}: ${failed.code}: ${oneLine(failed.message, 120)}`,
    );
  }
  for (const open of report.openCalls) {
    row(
      'open',
      `${open.callId} (attempt ${open.attempt}; runs again, attempt ${open.attempt + 1})`,
    );
  }
  const interruptions = report.interruptions ?? [];
  if (interruptions.length > 0) {
    lines.push('awaiting approval:');
    for (const call of interruptions) {
      const why = call.reasoning === undefined ? '' : ` (${oneLine(call.reasoning, 80)})`;
      lines.push(
        `  ${call.callId} ${call.tool} ${oneLine(JSON.stringify(call.params), 120)}${why}`,
      );
    }
  }
  lines.push(...resumeLines(report.resume));
  return `${lines.join('\n')}\n`;
}

/**
 * How `runs show` prints a resume suggestion: `resume with: <command>` (`decide with:` when it carries
 * an approval, plus the --reject alternative), or the code API on a line of its own.
 */
function resumeLines(resume: ResumeSuggestion | undefined): string[] {
  if (resume === undefined) return [];
  const verb = resume.approves === undefined ? 'resume' : 'decide';
  const when = resume.ifDead === true ? 'if the process running it has died, ' : '';
  if (resume.kind === 'command') {
    const reject =
      resume.approves === undefined
        ? ''
        : ` (or --reject ${resume.approves}=reason instead of --approve)`;
    return [`${when}${verb} with: ${resume.text}${reject}`];
  }
  return [
    `${when}${verb} from the code that defines its agent (the run was not started from an Idea file):`,
    `  ${resume.text}`,
  ];
}

/** `ideact runs list` as text: one run per line, newest first. */
export function formatRunList(runs: readonly RunSummary[]): string {
  if (runs.length === 0) return 'no runs\n';
  const header = ['RUN', 'STATUS', 'STOPPED', 'UPDATED', 'TASK'];
  const rows = runs.map((run) => [
    run.runId,
    run.status,
    run.stopReason ?? '',
    run.updatedAt,
    oneLine(run.task ?? '', 50),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  return `${[header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
