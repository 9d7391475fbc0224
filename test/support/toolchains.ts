import { transformSync as esbuildTransform } from 'esbuild';
import { transformSync as swcTransform } from '@swc/core';
import ts from 'typescript';

/**
 * The ways a user's TypeScript gets compiled (issue 29): each turns one source file into CommonJS
 * with legacy decorators; only `tsc-metadata` records the `design:*` types.
 */
export const TOOLCHAINS = ['tsc-metadata', 'tsc', 'esbuild', 'swc'] as const;

/** One of {@link TOOLCHAINS}. */
export type Toolchain = (typeof TOOLCHAINS)[number];

/**
 * Compiles `source` like that toolchain does for a user: tsc (`transpileModule`, as ts-node and
 * ts-jest do) with or without `emitDecoratorMetadata`; esbuild's transform (what tsx, Vite and most
 * bundlers run); SWC's transform with `legacyDecorator` and `decoratorMetadata: false`.
 */
export function compileWith(toolchain: Toolchain, source: string, fileName: string): string {
  switch (toolchain) {
    case 'tsc-metadata':
    case 'tsc':
      return ts.transpileModule(source, {
        fileName,
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
          experimentalDecorators: true,
          emitDecoratorMetadata: toolchain === 'tsc-metadata',
          esModuleInterop: true,
        },
      }).outputText;
    case 'esbuild':
      return esbuildTransform(source, {
        loader: 'ts',
        format: 'cjs',
        target: 'es2022',
        sourcefile: fileName,
        tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
      }).code;
    case 'swc':
      return swcTransform(source, {
        filename: fileName,
        swcrc: false,
        configFile: false,
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      }).code;
  }
}

/**
 * Evaluates CommonJS output with the caller's `require` (a test's: `ideact` is then the package under
 * test, and class-validator the copy it uses) and returns its exports.
 */
export function loadCommonJs<T>(code: string, load: NodeJS.Require): T {
  const module = { exports: {} as T };
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
  return module.exports;
}
