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

/** The executor bypasses of issue 27: an entry point importing an executor below the call pipeline. */
const BYPASSES: Array<[name: string, file: string, target: string]> = [
  ['the MCP server', 'mcp/server/mcp-tool-call.ts', '../../calls/executors/execute-inline'],
  ['the agent loop', 'agent/call-actor.ts', '../calls/executors/execute-module'],
  ['the playground', 'dev/call-run.ts', '../calls/executors/execute-inline'],
];

describe('layer rules (npm run lint:layers)', () => {
  it('passes on the sources as they are', () => {
    const result = lintLayers(() => undefined);
    expect(result.output).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });

  // One copy holds the upward import, the three bypasses and the unplaced folder (depcruise reports
  // every violation of a run, each with its rule and file): one run instead of five (~5 s each).
  let violations: { status: number; output: string };
  beforeAll(() => {
    violations = lintLayers((directory) => {
      appendFileSync(
        join(directory, 'src', 'protocol', 'json-schema.ts'),
        "\nexport { Executor } from '../calls/executor';\n",
      );
      for (const [, file, target] of BYPASSES) {
        appendFileSync(
          join(directory, 'src', file),
          `\nexport { runActivity as bypass } from '${target}';\n`,
        );
      }
      cpSync(join(directory, 'src', 'internal'), join(directory, 'src', 'gadgets'), {
        recursive: true,
      });
      appendFileSync(
        join(directory, 'src', 'index.ts'),
        "\nexport * from './gadgets/lazy-module';\n",
      );
    });
  });

  it('fails when the protocol imports the call pipeline (an upward import)', () => {
    expect(violations.status).not.toBe(0);
    expect(violations.output).toMatch(
      /layer-protocol: src\/protocol\/json-schema\.ts → src\/calls\/executor\.ts/,
    );
  });

  it.each(BYPASSES)(
    'fails when %s imports an executor below the call pipeline (issue 27: one way through)',
    (_name, file, target) => {
      expect(violations.status).not.toBe(0);
      const executor = `src/calls/executors/${target.split('/').pop() ?? ''}.ts`;
      expect(violations.output).toMatch(
        new RegExp(
          `calls-through-the-pipeline: src/${file.replace(/\./g, '\\.')} → ${executor.replace(/\./g, '\\.')}`,
        ),
      );
    },
  );

  it('fails when a new top-level folder is not placed in the layer order', () => {
    expect(violations.status).not.toBe(0);
    expect(violations.output).toMatch(
      /no-unknown-layer: src\/index\.ts → src\/gadgets\/lazy-module\.ts/,
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
});
