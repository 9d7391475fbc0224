import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(__dirname, 'fixtures', 'consumer.ts');

/** Diagnostics of a strict consumer program, limited to the fixture and the decorator/container layer. */
function consumerDiagnostics(): string[] {
  const program = ts.createProgram([FIXTURE], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noUnusedLocals: true,
    types: ['node'],
    baseUrl: ROOT,
    paths: { ideact: ['src/index.ts'], 'ideact/testing': ['src/testing/index.ts'] },
  });
  const ours = (file: string): boolean => {
    const relative = path.relative(ROOT, path.resolve(file));
    return (
      relative === path.relative(ROOT, FIXTURE) ||
      relative.startsWith(path.join('src', 'decorators')) ||
      relative.startsWith(path.join('src', 'container'))
    );
  };
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || ours(diagnostic.file.fileName))
    .map(
      (diagnostic) =>
        `${diagnostic.file ? path.relative(ROOT, diagnostic.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    );
}

describe('a strict TypeScript consumer project', () => {
  it("compiles `import { Tool, Output, Activity, Module, Imports, OutputPath, toolSchema, createContainer, Executor } from 'ideact'` with zero diagnostics", () => {
    expect(consumerDiagnostics()).toEqual([]);
  });

  it('runs: the decorated classes give schemas and the container executes both kinds of call', async () => {
    const consumer = await import('./fixtures/consumer');
    const { toolSchema } = await import('ideact');
    expect(toolSchema(consumer.WeatherReport).properties._tool).toEqual({ const: 'weatherReport' });
    const messages = await consumer.main();
    expect(messages[0]).toMatchObject({ type: 'result', output: { summary: 'short' } });
    expect(messages[1]).toMatchObject({ type: 'state' });
  });
});
