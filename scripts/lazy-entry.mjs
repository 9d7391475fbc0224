/**
 * Post-build step of `npm run build`: makes the package entry (dist/index.js) load each re-exported
 * module on first use, so `require('ideact')` costs a few modules instead of all of them (issue 15,
 * light imports). tsc compiles `export { X } from './x'` to an eager `var x_1 = require("./x")` plus a
 * getter `return x_1.X`; only the `require` becomes `lazyExports(() => require("./x"))`. The getters
 * keep the form cjs-module-lexer detects, so ESM `import { X } from 'ideact'` still works. Bare
 * side-effect imports (`require("reflect-metadata")`) stay eager. Usage: node scripts/lazy-entry.mjs [entry]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist', 'index.js'));
const HELPER_NAME = '__ideactLazyExports';
const HELPER =
  `/** Loads a re-exported module on first property access (scripts/lazy-entry.mjs). */\n` +
  `function ${HELPER_NAME}(load) {\n` +
  `    let loaded;\n` +
  `    return new Proxy({}, { get: (_target, key) => (loaded ??= load())[key] });\n` +
  `}\n`;
const EAGER_REEXPORT = /^(var [A-Za-z_$][\w$]* = )require\(("[^"]+")\);$/gm;

const source = readFileSync(entry, 'utf8');
if (source.includes(`function ${HELPER_NAME}(`)) {
  console.log(`lazy-entry: ${path.relative(ROOT, entry)} is already lazy`);
} else {
  let count = 0;
  const lazy = source.replace(EAGER_REEXPORT, (_line, declaration, specifier) => {
    count += 1;
    return `${declaration}${HELPER_NAME}(() => require(${specifier}));`;
  });
  if (count === 0) {
    throw new Error(
      `lazy-entry: no \`var x = require("…");\` line in ${entry}; has tsc's CommonJS output changed?`,
    );
  }
  // Before the source-map comment, after every compiled line, so the map still lines up.
  const mapComment = lazy.lastIndexOf('\n//# sourceMappingURL=');
  const output =
    mapComment === -1
      ? `${lazy}\n${HELPER}`
      : `${lazy.slice(0, mapComment + 1)}${HELPER}${lazy.slice(mapComment + 1)}`;
  writeFileSync(entry, output);
  console.log(
    `lazy-entry: ${count} re-exported modules of ${path.relative(ROOT, entry)} load on first use`,
  );
}
