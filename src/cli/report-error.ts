import { InputError } from '../errors/input.error';
import type { CliIo } from './cli-io';
import { isDebug } from './cli-io';
import { ExitCode, type ExitCodeValue } from './exit-codes';

/**
 * Error codes that mean "bad input or usage" (exit 2) rather than a failed run (exit 1), besides
 * every `InputError` (an unknown run id, a finished run, an agent name no Idea has, …).
 */
const USAGE_CODES = new Set([
  'CLI_USAGE',
  'IDEA_FILE_NOT_FOUND',
  'INVALID_IDEA',
  'INVALID_SCHEMA',
  'MISSING_API_KEY',
  'MODEL_PACKAGE_MISSING',
  'UNKNOWN_MODEL_PROVIDER',
  'CODEGEN_FAILED',
  'INVALID_AGENT_STATE',
  'MODULE_NOT_FOUND',
  'MODULE_PATH',
  'TYPESCRIPT_LOADER_MISSING',
]);

/**
 * Prints an error as one clear line on stderr (`ideact: <message>`; the stack trace only with
 * `DEBUG=ideact`) and returns the exit code it maps to: 2 for bad input and usage (any `InputError`),
 * 1 otherwise.
 */
export function reportError(error: unknown, io: CliIo): ExitCodeValue {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? message;
  const rest = message.split('\n').slice(1).join('\n');
  io.stderr(`ideact: ${firstLine}\n`);
  if (isDebug(io.env)) {
    if (rest !== '') io.stderr(`${rest}\n`);
    if (error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
  } else if (rest !== '') {
    io.stderr(`${indent(rest)}\n`);
  }
  const usage = InputError.isInstance(error) || (typeof code === 'string' && USAGE_CODES.has(code));
  return usage ? ExitCode.usage : ExitCode.failure;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
