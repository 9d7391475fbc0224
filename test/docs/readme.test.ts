import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ideact from 'ideact';

// Table cells may be padded for alignment (prettier): compare with runs of spaces collapsed.
const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8').replace(
  / {2,}/g,
  ' ',
);

describe('README', () => {
  it('points to the error catalogue and names the five error groups', () => {
    expect(readme).toContain('[docs/errors.md](docs/errors.md)');
    for (const group of [
      ideact.ConfigurationError,
      ideact.InputError,
      ideact.ModelBehaviorError,
      ideact.ProviderError,
      ideact.ExecutionError,
    ])
      expect(readme).toContain(`\`${group.name}\``);
  });

  it('gives the two quickstart commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });
});
