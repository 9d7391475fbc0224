/**
 * Rethrows what requiring an optional package threw (issue 29): `missing(error)` when the package
 * itself is not installed, the error as is when it is installed but broken or one of its own
 * dependencies is missing. Call it from the `catch` of a `try` that holds the `require('<package>')`
 * itself: bundlers (esbuild, webpack, Bun, Parcel) leave a require written inside a `try` for run
 * time when they cannot resolve it, so an app bundled without the package builds without errors, and
 * one bundled with it gets the package in its bundle.
 * @internal
 */
export function rethrowMissing(
  error: unknown,
  packageName: string,
  missing: (cause: unknown) => Error,
): never {
  if (isMissing(error, packageName)) throw missing(error);
  throw error;
}

/** True when `error` says that `packageName` (not something it needs) cannot be found. @internal */
export function isMissing(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message : String(error);
  return (
    message.includes(`'${packageName}'`) ||
    message.includes(`'${packageName}/`) ||
    message.includes(`"${packageName}"`) ||
    message.includes(`"${packageName}/`) ||
    message.includes(`package '${packageName}'`)
  );
}
