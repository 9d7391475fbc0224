/**
 * Prettier's CommonJS entry loads itself with a dynamic `import()`, which Jest's VM refuses without
 * --experimental-vm-modules. json-schema-to-typescript formats with prettier, so codegen tests swap in
 * prettier's standalone build (same formatter, same output) via `jest.mock('prettier', …)`.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const standalone = require('prettier/standalone') as {
  format: (source: string, options: Record<string, unknown>) => Promise<string>;
};
const plugins = [
  require('prettier/plugins/typescript'),
  require('prettier/plugins/estree'),
] as unknown[];

/** `prettier.format` backed by the standalone build with the TypeScript parser plugins. */
export function format(source: string, options: Record<string, unknown> = {}): Promise<string> {
  return standalone.format(source, { ...options, plugins });
}
