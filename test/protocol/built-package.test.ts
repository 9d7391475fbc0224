import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The functions behave as listed when imported from the BUILT package (`npm test` builds first).
 * Loads dist/ at run time so this file type-checks before the build exists.
 */
const distEntry = join(__dirname, '..', '..', 'dist', 'index.js');

function loadBuilt(): typeof import('ideact') {
  if (!existsSync(distEntry)) {
    throw new Error(`${distEntry} is missing: run "npm run build" first (npm test does it).`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(distEntry) as typeof import('ideact');
}

describe('protocol from the built package (dist/)', () => {
  const built = loadBuilt();

  it('R-DATA-1/2: merges and renders seed 004', () => {
    const rendered = built.renderMessages([
      {
        type: 'data',
        kind: 'user',
        data: { name: 'John Doe' },
        description: 'Represents the current user.',
      },
      { type: 'data', kind: 'user', data: { age: 30 } },
    ]);
    expect(rendered).toEqual([
      {
        role: 'user',
        content:
          '## Data: ¶user\n{\n  "name": "John Doe",\n  "age": 30\n}\nRepresents the current user.',
      },
    ]);
  });

  it('R-VAR-1 / R-OUT-1 / R-IMP-1: references, output paths and imports', () => {
    const context = [{ type: 'state' as const, state: { city: 'Austin' } }];
    expect(built.resolveReferences({ city: '†state.city || †input.city' }, context)).toEqual({
      city: 'Austin',
    });
    expect(built.applyOutputPath('a || b', { error: { code: 'X', message: 'm' } }, 'i')).toEqual([
      {
        type: 'state',
        state: { b: { error: { code: 'X', message: 'm' } } },
        _instance: 'i',
        _outputPath: '†state.b',
        _outputMethod: 'set',
      },
    ]);
    expect(built.selectImports(context, ['state'])).toEqual(context);
    expect(() => built.applyOutputPath('__proto__.x', { output: 1 })).toThrow(
      built.UnsafePathError,
    );
  });

  it('R-TOOL-1/2 and the vessel: invert, resolve activity, build and parse', () => {
    const tool = built.invertIdea({ name: 'haiku', context: [], schema: { type: 'string' } });
    expect(built.resolveActivity(tool, new Set())).toBe('');
    const schema = built.buildVesselSchema([tool]);
    const solution = { calls: [{ _tool: 'haiku', _output: 'old pond' }], output: null };
    expect(built.validateJson(schema, solution)).toEqual([]);
    expect(built.parseVessel(solution, [tool])).toEqual(solution);
    let caught: unknown;
    try {
      built.parseVessel({ calls: [{ _tool: 'nope' }], output: null }, [tool]);
    } catch (error) {
      caught = error;
    }
    expect(built.UnknownToolError.isInstance(caught)).toBe(true);
    expect(built.IdeactError.isInstance(caught)).toBe(true);
  });
});
