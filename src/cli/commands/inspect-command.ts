import type { CliIo } from '../cli-io';
import { ExitCode, type ExitCodeValue } from '../exit-codes';

/** `ideact inspect <state.json>`: prints the saved run (either state file format) as a readable node tree. */
export async function inspectCommand(file: string, io: CliIo): Promise<ExitCodeValue> {
  const { loadState } = await import('../../store/state-file-store');
  const { renderState } = await import('../render-state');
  const state = await loadState(file);
  io.stdout(renderState(state, `state ${file}`));
  return ExitCode.ok;
}
