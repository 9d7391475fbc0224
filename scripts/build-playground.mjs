/**
 * Post-build step of `npm run build` (issue 20): bundles the playground's browser app
 * (playground/src/main.tsx, React + rjsf) with esbuild into dist/dev/assets/{app.js, app.css,
 * index.html}, minified, offline (only local node_modules), so `ideact dev` needs no build step and no
 * network at run time. The page is playground/index.html (it loads /assets/app.js and /assets/app.css).
 * Usage: node scripts/build-playground.mjs [--allow-missing]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(ROOT, 'playground', 'src', 'main.tsx');
const PAGE = path.join(ROOT, 'playground', 'index.html');
const OUT = path.join(ROOT, 'dist', 'dev', 'assets');

if (!existsSync(ENTRY)) {
  const message = `build-playground: ${path.relative(ROOT, ENTRY)} is missing, so the playground's assets were not built (ideact dev will answer "run npm run build").`;
  if (process.argv.includes('--allow-missing')) {
    console.warn(message);
    process.exit(0);
  }
  console.error(message);
  process.exit(1);
}

const esbuild = await import('esbuild');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const started = Date.now();
const result = await esbuild.build({
  entryPoints: { app: ENTRY },
  outdir: OUT,
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  jsx: 'automatic',
  tsconfig: path.join(ROOT, 'playground', 'tsconfig.json'),
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
if (!existsSync(path.join(OUT, 'app.css'))) writeFileSync(path.join(OUT, 'app.css'), '');
const page = existsSync(PAGE)
  ? readFileSync(PAGE, 'utf8')
  : '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>ideact dev</title>' +
    '<link rel="stylesheet" href="/assets/app.css"></head>\n' +
    '<body><div id="root"></div><script src="/assets/app.js"></script></body>\n</html>\n';
for (const asset of ['/assets/app.js', '/assets/app.css']) {
  if (!page.includes(asset)) {
    console.error(`build-playground: ${path.relative(ROOT, PAGE)} must load ${asset}`);
    process.exit(1);
  }
}
writeFileSync(path.join(OUT, 'index.html'), page);
const sizes = Object.entries(result.metafile.outputs)
  .map(([file, output]) => `${path.basename(file)} ${(output.bytes / 1024).toFixed(0)} KB`)
  .join(', ');
console.log(`build-playground: dist/dev/assets (${sizes}) in ${Date.now() - started} ms`);
