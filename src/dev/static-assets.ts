import { promises as fs } from 'node:fs';
import type { ServerResponse } from 'node:http';
import * as path from 'node:path';

/**
 * The built browser app (`dist/dev/assets`: index.html, app.js, app.css): `/assets/<file>` serves a
 * file of that folder and nothing else (no `..`, no hidden files, no symlinks out of it); every other
 * page path answers index.html (the app routes by URL hash). Nothing of the ideas folder is served.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Where the built assets are by default: `dist/dev/assets` beside the compiled server. */
export function defaultAssetsDir(): string {
  return path.join(__dirname, 'assets');
}

/** Answers `/assets/<name>` from `assetsDir`; false when the path is not a servable asset (404). */
export async function serveAsset(
  assetsDir: string,
  urlPath: string,
  response: ServerResponse,
): Promise<boolean> {
  let name: string;
  try {
    name = decodeURIComponent(urlPath.slice('/assets/'.length));
  } catch {
    return false;
  }
  const parts = name.split(/[/\\]/);
  if (
    name === '' ||
    name.includes('\0') ||
    parts.some((part) => part === '' || part.startsWith('.'))
  ) {
    return false;
  }
  const root = await fs.realpath(assetsDir).catch(() => undefined);
  if (root === undefined) return false;
  const file = await fs.realpath(path.join(root, ...parts)).catch(() => undefined);
  if (file === undefined) return false;
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat?.isFile() !== true) return false;
  const body = await fs.readFile(file);
  response.writeHead(200, {
    'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(body);
  return true;
}

/** Answers a page path with index.html, or a 500 page saying how to build the assets. */
export async function serveIndex(assetsDir: string, response: ServerResponse): Promise<void> {
  let body: Buffer;
  try {
    body = await fs.readFile(path.join(assetsDir, 'index.html'));
  } catch {
    const text =
      `<!doctype html><meta charset="utf-8"><title>ideact dev</title>` +
      `<h1>The playground's assets are missing</h1><p>No index.html in ${escapeHtml(assetsDir)}: ` +
      `run <code>npm run build</code> (it bundles playground/ into dist/dev/assets).</p>`;
    response.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(text);
    return;
  }
  response.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  });
  response.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
