/**
 * Post-build step of `npm run build` (after scripts/lazy-entry.mjs): writes dist/index.mjs, the
 * package's ES module entry (issue 28). An ES module's named exports are read when it is imported,
 * so re-exporting the CommonJS entry would load every module behind it (~150 ms). Instead, for each
 * export of the CommonJS entry (dist/index.js, loaded here at build time to learn the kinds):
 * - a function or class becomes a lazy stand-in (`lazyExport`, src/internal/lazy-export.ts) that
 *   loads the real one — the very object `require('ideact')` gives — on first use;
 * - a string, number or boolean is written as its literal;
 * - an object (typedi tokens, schemas, tables) becomes a lazy object stand-in (`lazyObject`); the
 *   container takes the stand-in of a token (or of a class) for the real one.
 * Usage: node scripts/esm-entry.mjs [dist folder]
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
const require = createRequire(import.meta.url);
const entry = require(path.join(dist, 'index.js'));

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const lines = [
  '// The ES module entry of ideact, made by scripts/esm-entry.mjs: see that file for how it works.',
  "import { createRequire } from 'node:module';",
  '',
  'const require = createRequire(import.meta.url);',
  "// As `require('ideact')` does: decorated classes defined after this import get design types.",
  "require('reflect-metadata');",
  "const { lazyExport, lazyObject } = require('./internal/lazy-export.js');",
  'let entry;',
  "const load = (name) => (entry ??= require('./index.js'))[name];",
  '',
];
const counts = { lazy: 0, literal: 0, object: 0 };
for (const name of Object.keys(entry).sort()) {
  if (!IDENTIFIER.test(name)) throw new Error(`esm-entry: export "${name}" is not an identifier`);
  const value = entry[name];
  if (typeof value === 'function') {
    lines.push(
      `export const ${name} = lazyExport(${JSON.stringify(name)}, () => load(${JSON.stringify(name)}));`,
    );
    counts.lazy += 1;
  } else if (['string', 'number', 'boolean'].includes(typeof value)) {
    lines.push(`export const ${name} = ${JSON.stringify(value)};`);
    counts.literal += 1;
  } else if (typeof value === 'object' && value !== null) {
    const array = Array.isArray(value) ? ', true' : '';
    lines.push(`export const ${name} = lazyObject(() => load(${JSON.stringify(name)})${array});`);
    counts.object += 1;
  } else {
    throw new Error(
      `esm-entry: export "${name}" is a ${typeof value}; teach esm-entry.mjs about it`,
    );
  }
}
writeFileSync(path.join(dist, 'index.mjs'), `${lines.join('\n')}\n`);
console.log(
  `esm-entry: dist/index.mjs with ${counts.lazy} lazy functions and classes, ${counts.object} lazy objects, ${counts.literal} literals`,
);
