import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ideact from 'ideact';

// Table cells may be padded for alignment (prettier): compare with runs of spaces collapsed.
const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8').replace(
  / {2,}/g,
  ' ',
);

describe('README', () => {
  it('lists every exported error class with its stable code and fault in the error codes table', () => {
    const errors = Object.entries(ideact).filter(
      ([, value]) =>
        typeof value === 'function' &&
        (value === ideact.IdeactError || value.prototype instanceof ideact.IdeactError),
    ) as Array<[string, typeof ideact.IdeactError]>;
    expect(errors.length).toBeGreaterThan(30);
    const missing = errors
      .map(([name, error]) => `| \`${error.code}\` | \`${name}\` | ${error.fault} |`)
      .filter((row) => !readme.includes(row));
    expect(missing).toEqual([]);
  });

  it('gives the two quickstart commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });
});
