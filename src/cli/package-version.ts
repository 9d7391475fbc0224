import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The version in ideact's package.json (for `--version` and the tracer), `0.0.0` when unreadable. */
export function packageVersion(): string {
  try {
    const file = path.join(__dirname, '..', '..', 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
