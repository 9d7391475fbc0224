/**
 * W12's floor (issue 16): what the OpenTelemetry SDK itself costs for the spans ideact makes per W1
 * turn, with no ideact in the loop. `node bench/otel-floor.mjs [sdk]` runs 200 "turns" × 100 rounds
 * (after 20 warm-up rounds), each turn one `chat` and one `execute_tool` span (the GenAI attributes
 * ideact sets) around ten awaits each, plus sixty awaits outside them (roughly the promises of an
 * ideact turn); with `sdk` the root's NodeTracerProvider (AsyncLocalStorage context manager,
 * SimpleSpanProcessor into memory) is registered first. Prints one `BENCH_RESULT <json>` line: wall
 * and CPU µs per turn. The difference between the two runs is the floor no instrumentation making
 * these spans can go below.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { ROOT } from './lib/ideact-package.mjs';

const TURNS = 200;
const WARM_UP_ROUNDS = 20;
const ROUNDS = 100;
const rootRequire = createRequire(path.join(ROOT, 'package.json'));
const api = rootRequire('@opentelemetry/api');

async function awaits(count) {
  for (let index = 0; index < count; index++) await Promise.resolve(index);
}

async function turn(tracer) {
  const chat = {
    kind: api.SpanKind.CLIENT,
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'instant' },
  };
  await tracer.startActiveSpan('chat', chat, async (span) => {
    await awaits(10);
    span.setAttribute('gen_ai.usage.input_tokens', 1);
    span.setAttribute('gen_ai.usage.output_tokens', 1);
    span.end();
  });
  const tool = {
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'getWeather',
      'gen_ai.tool.call.id': 'n1:0',
    },
  };
  await tracer.startActiveSpan('execute_tool getWeather', tool, async (span) => {
    await awaits(10);
    span.end();
  });
  await awaits(60);
}

async function main() {
  const withSdk = process.argv[2] === 'sdk';
  if (withSdk) {
    const { InMemorySpanExporter, SimpleSpanProcessor } = rootRequire(
      '@opentelemetry/sdk-trace-base',
    );
    const { NodeTracerProvider } = rootRequire('@opentelemetry/sdk-trace-node');
    const exporter = new InMemorySpanExporter();
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    setInterval(() => exporter.reset(), 50).unref();
  }
  const tracer = api.trace.getTracer('otel-floor');
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (let index = 0; index < TURNS; index++) await turn(tracer);
  }
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < TURNS; index++) await turn(tracer);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const turns = ROUNDS * TURNS;
  const result = {
    workload: 'w12-otel-floor',
    sdk: withSdk,
    usPerTurn: ((performance.now() - started) * 1000) / turns,
    cpuUsPerTurn: (cpu.user + cpu.system) / turns,
  };
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stdout.write(
    `BENCH_RESULT ${JSON.stringify({ workload: 'w12-otel-floor', error: String(error) })}\n`,
  );
  process.exitCode = 1;
});
