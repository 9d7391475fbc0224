import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Issue 14, item 12: docs/ and examples/ ship in the npm tarball, and every relative link of the
 * README and docs/*.md points to a file in it (links to the repository's tests and benchmarks are
 * absolute), so the docs read the same from node_modules/ideact as on GitHub.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const MARKDOWN = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

let packed: string[];

beforeAll(() => {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [manifest] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
  packed = manifest!.files.map((file) => file.path);
}, 60_000);

/** Relative link targets of a Markdown file (no URLs, no pure anchors), resolved from the repo root. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const targets: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!.split('#')[0]!;
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    targets.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), target)));
  }
  return targets;
}

describe('the npm package ships the docs (npm pack --dry-run)', () => {
  it('contains README.md, every docs/*.md and the examples', () => {
    for (const file of MARKDOWN) expect(packed).toContain(file);
    expect(packed).toContain('examples/weather/main.ts');
    expect(packed).toContain('examples/music/ideas/producer.json');
  });

  it('every relative link of the README and docs/*.md points into the package', () => {
    const broken = MARKDOWN.flatMap((file) =>
      relativeLinks(file)
        .filter(
          (target) =>
            !packed.includes(target) && !packed.some((entry) => entry.startsWith(`${target}/`)),
        )
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
