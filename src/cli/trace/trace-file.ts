import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Tracer } from '@opentelemetry/api';
import { CliUsageError } from '../../errors/cli-usage.error';
import { packageVersion } from '../package-version';
import { JsonLinesSpanExporter } from './json-lines-span-exporter';
import { MissingPackageError } from '../../errors/missing-package.error';
import { rethrowMissing } from '../../internal/optional-module';

/** The tracing of one `ideact run --trace FILE`. */
export interface TraceFile {
  /** The tracer the agent's spans go to (`createAgent({ trace: { tracer } })`). */
  readonly tracer: Tracer;
  /** Ends tracing: flushes every span, shuts the SDK down and writes FILE (once; later calls wait for it). */
  finish(): Promise<void>;
}

/**
 * Starts the OpenTelemetry Node SDK for `--trace FILE`: a tracer provider whose spans go to FILE as
 * JSON lines, registered with its AsyncLocalStorage context manager so nested spans find their
 * parent. The SDK is loaded here only, so a run without `--trace` never loads it. If the process exits
 * before `finish()` (a second Ctrl-C), the spans ended so far are still written.
 */
export async function startTraceFile(file: string): Promise<TraceFile> {
  const target = path.resolve(file);
  try {
    await fs.access(path.dirname(target), fs.constants.W_OK);
  } catch {
    throw new CliUsageError({
      option: '--trace',
      reason: `the directory of ${file} does not exist or is not writable`,
      fix: 'Pass a file in an existing, writable directory.',
    });
  }
  // The OpenTelemetry SDK is an optional dependency: only `--trace` needs it.
  const { NodeTracerProvider, SimpleSpanProcessor } = traceSdk();
  const exporter = new JsonLinesSpanExporter(target);
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  const onExit = (): void => exporter.writeNow();
  process.on('exit', onExit);
  let finished: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('ideact', packageVersion()),
    finish: () =>
      (finished ??= (async () => {
        try {
          await provider.forceFlush();
          await provider.shutdown();
        } finally {
          process.removeListener('exit', onExit);
          exporter.writeNow();
        }
      })()),
  };
}

/** The OpenTelemetry SDK for Node, required in a `try` so that bundlers leave it optional. */
function traceSdk(): typeof import('@opentelemetry/sdk-trace-node') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional, loaded on first use
    return require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  } catch (error) {
    return rethrowMissing(
      error,
      '@opentelemetry/sdk-trace-node',
      (cause) =>
        new MissingPackageError({
          packageName: '@opentelemetry/sdk-trace-node',
          feature: '`ideact run --trace FILE` (spans written by the OpenTelemetry SDK)',
          cause,
        }),
    );
  }
}
