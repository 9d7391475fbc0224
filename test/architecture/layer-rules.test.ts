import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The layer rules can fail (issue 15): the exact `lint:layers` command of package.json runs on a copy
 * of src/ with one deliberate violation at a time, and must exit non-zero naming the rule and file.
 */
const ROOT = join(__dirname, '..', '..');
const command = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts['lint:layers'] as string;

function lintLayers(change: (directory: string) => void): { status: number; output: string } {
  const directory = mkdtempSync(join(tmpdir(), 'ideact-layers-'));
  try {
    cpSync(join(ROOT, 'src'), join(directory, 'src'), { recursive: true });
    for (const file of ['tsconfig.json', '.dependency-cruiser.cjs'])
      cpSync(join(ROOT, file), join(directory, file));
    change(directory);
    try {
      const output = execFileSync('sh', ['-c', command], {
        cwd: directory,
        env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` },
        encoding: 'utf8',
        stdio: 'pipe',
      });
      return { status: 0, output };
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string };
      return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('layer rules (npm run lint:layers)', () => {
  it('passes on the sources as they are', () => {
    const result = lintLayers(() => undefined);
    expect(result.output).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });

  it('fails when the protocol imports the runtime (an upward import)', () => {
    const result = lintLayers((directory) =>
      appendFileSync(
        join(directory, 'src', 'protocol', 'json-schema.ts'),
        "\nexport { Executor } from '../runtime/executor';\n",
      ),
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(
      /layer-protocol: src\/protocol\/json-schema\.ts → src\/runtime\/executor\.ts/,
    );
  });

  it('fails on an import cycle inside one layer', () => {
    const result = lintLayers((directory) =>
      appendFileSync(
        join(directory, 'src', 'protocol', 'json-schema.ts'),
        "\nexport type { Call } from './call';\n",
      ),
    );
    // protocol/call.ts already imports json-schema.ts, so this closes a circle.
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/no-circular/);
    expect(result.output).toContain('src/protocol/json-schema.ts');
  });

  it('fails when a new top-level folder is not placed in the layer order', () => {
    const result = lintLayers((directory) => {
      cpSync(join(directory, 'src', 'internal'), join(directory, 'src', 'gadgets'), {
        recursive: true,
      });
      appendFileSync(
        join(directory, 'src', 'index.ts'),
        "\nexport * from './gadgets/lazy-module';\n",
      );
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/no-unknown-layer/);
  });
});
