/**
 * `npm run build`'s first step: removes dist/, so files of sources that were moved or deleted never
 * linger in the build (and in the packed tarball, with source maps pointing at nothing).
 */
import { rmSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

rmSync(fileURLToPath(new URL('../dist', import.meta.url)), { recursive: true, force: true });
