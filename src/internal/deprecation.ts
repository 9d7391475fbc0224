const warned = new Set<string>();

/**
 * Prints a Node `DeprecationWarning` once per process and code (`IDEACT_DEP_…`): old spellings keep
 * working while users learn the one documented way; `--no-deprecation` silences it.
 * @internal
 */
export function warnDeprecated(code: string, message: string): void {
  if (warned.has(code)) return;
  warned.add(code);
  process.emitWarning(message, { type: 'DeprecationWarning', code });
}
