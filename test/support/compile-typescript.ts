import * as path from 'node:path';
import ts from 'typescript';

/** Repository root (where tsconfig.json and src/index.ts live). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** One compiler diagnostic, flattened for assertions. */
export interface Diagnostic {
  file?: string;
  code: number;
  message: string;
}

/**
 * Type-checks `files` with the TypeScript compiler API the way a strict consumer project would:
 * strict, legacy decorators with metadata, `ideact` mapped to src/index.ts. Returns the diagnostics
 * of `files` only (errors in other layers' files are not what these tests are about).
 */
export function typeCheck(files: string[]): Diagnostic[] {
  const options: ts.CompilerOptions = {
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
    baseUrl: REPO_ROOT,
    paths: { ideact: ['src/index.ts'], 'ideact/testing': ['src/testing/index.ts'] },
  };
  const program = ts.createProgram(files, options);
  const wanted = new Set(files.map((file) => path.resolve(file)));
  return ts
    .getPreEmitDiagnostics(program)
    .filter(
      (diagnostic) =>
        diagnostic.file === undefined || wanted.has(path.resolve(diagnostic.file.fileName)),
    )
    .map((diagnostic) => ({
      file: diagnostic.file?.fileName,
      code: diagnostic.code,
      message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    }));
}
