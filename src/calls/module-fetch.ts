import { ModuleUrlError } from '../errors/module-url.error';
import { bothNamesInCode } from '../protocol/protocol-vocabulary';

/** Limits for loading an Idea over http(s) (R-MOD-6). @internal */
export interface ModuleFetchLimits {
  /** Exact host names (or `host:port`) that may serve modules. */
  allowedHosts: readonly string[];
  /** Abort the download after this many milliseconds. */
  timeoutMs: number;
  /** Refuse bodies larger than this many bytes. */
  maxBytes: number;
}

/**
 * Downloads a module URL as text with the global `fetch`: http(s) only, host on the allow-list (exact
 * match), redirects refused (they could leave the allow-list), a timeout and a size cap.
 * @internal
 */
export async function fetchModuleText(
  reference: string,
  limits: ModuleFetchLimits,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(reference);
  } catch (error) {
    throw new ModuleUrlError({
      url: reference,
      reason: 'it is not a valid URL',
      fix: 'Write an absolute http(s) URL or a path relative to the module root.',
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModuleUrlError({
      url: reference,
      reason: `the scheme "${url.protocol}" is not supported`,
      fix: 'Only http: and https: URLs can be modules; use a path relative to the module root for local files.',
    });
  }
  if (!limits.allowedHosts.includes(url.hostname) && !limits.allowedHosts.includes(url.host)) {
    const allowed = limits.allowedHosts.length ? limits.allowedHosts.join(', ') : '(none)';
    throw new ModuleUrlError({
      url: reference,
      reason: `the host "${url.host}" is not in allowedModuleHosts (${allowed})`,
      fix: `Add "${url.hostname}" to \`allowedModuleHosts\` if you trust it.`,
    });
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: 'error' });
    if (!response.ok) {
      throw new ModuleUrlError({
        url: reference,
        reason: `the server answered HTTP ${response.status}`,
        fix: 'Check that the URL points to an Idea JSON file.',
      });
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      throw sizeError(reference, limits.maxBytes);
    }
    return await readCapped(response, reference, limits.maxBytes);
  } catch (error) {
    if (ModuleUrlError.isInstance(error)) throw error;
    if (controller.signal.aborted) {
      throw new ModuleUrlError({
        url: reference,
        reason: `no complete answer within ${limits.timeoutMs} ms`,
        fix: 'Check the server, or raise the loader timeout.',
        cause: error,
      });
    }
    throw new ModuleUrlError({
      url: reference,
      reason: `the request failed (${error instanceof Error ? error.message : String(error)}; redirects are refused)`,
      fix: `Check the URL and the server; point ${bothNamesInCode('delegateField')} at the final URL, not at a redirect.`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

function sizeError(reference: string, maxBytes: number): ModuleUrlError {
  return new ModuleUrlError({
    url: reference,
    reason: `the body is larger than ${maxBytes} bytes`,
    fix: 'Make the Idea smaller or raise the loader size cap (`maxBytes`).',
  });
}

async function readCapped(
  response: Response,
  reference: string,
  maxBytes: number,
): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw sizeError(reference, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
