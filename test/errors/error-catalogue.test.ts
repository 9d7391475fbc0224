import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ideact from 'ideact';

/**
 * One error catalogue (issue 15): every exported error class has a unique code, a group parent that
 * says who must act, and a row in docs/errors.md under that group; `isInstance` holds for parents
 * and across two loaded copies of the built package.
 */
const ROOT = join(__dirname, '..', '..');
type ErrorClass = typeof ideact.IdeactError;

const GROUPS = [
  'ConfigurationError',
  'InputError',
  'ModelBehaviorError',
  'ProviderError',
  'ExecutionError',
] as const;

function exportedErrorClasses(module: Record<string, unknown>): Array<[string, ErrorClass]> {
  const base = module.IdeactError as ErrorClass;
  return Object.entries(module).filter(
    ([name, value]) =>
      typeof value === 'function' &&
      (value === base || value.prototype instanceof base) &&
      // An alias export (an old name of a class) is listed under the class's own name.
      (value as ErrorClass).name === name,
  ) as Array<[string, ErrorClass]>;
}

/** The group parent of an error class: the nearest ancestor listed in GROUPS. */
function groupOf(errorClass: ErrorClass): string | undefined {
  for (
    let current: unknown = errorClass;
    typeof current === 'function';
    current = Object.getPrototypeOf(current)
  ) {
    const name = (current as ErrorClass).name;
    if ((GROUPS as readonly string[]).includes(name) && current !== errorClass) return name;
  }
  return undefined;
}

/** Rows of docs/errors.md: code, class and the group heading they stand under. */
function documentedRows(): Array<{
  code: string;
  className: string;
  group: string;
  cells: string[];
}> {
  const text = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
  const rows: Array<{ code: string; className: string; group: string; cells: string[] }> = [];
  let group = '';
  for (const line of text.split('\n')) {
    const heading = /^## .*\(`(\w+)`\)$/.exec(line);
    if (heading) group = heading[1] as string;
    else if (line.startsWith('## ')) group = '';
    const row = /^\| `([A-Z_]+)` +\| `(\w+)` +\|(.*)\|$/.exec(line);
    if (row && group !== '')
      rows.push({
        code: row[1] as string,
        className: row[2] as string,
        group,
        cells: (row[3] as string).split(' | ').map((cell) => cell.trim()),
      });
  }
  return rows;
}

describe('the error catalogue (docs/errors.md)', () => {
  const classes = exportedErrorClasses(ideact as unknown as Record<string, unknown>);
  const concrete = classes.filter(
    ([name]) => name !== 'IdeactError' && !(GROUPS as readonly string[]).includes(name),
  );

  it('gives every exported error class a unique stable code', () => {
    expect(concrete.length).toBeGreaterThan(40);
    const codes = classes.map(([, errorClass]) => errorClass.code);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
    for (const [, errorClass] of classes) expect(errorClass.code).toMatch(/^[A-Z][A-Z_]+$/);
  });

  it('puts every concrete error class under one group parent whose fault it shares', () => {
    const ungrouped = concrete.filter(([, errorClass]) => groupOf(errorClass) === undefined);
    expect(ungrouped.map(([name]) => name)).toEqual([]);
    for (const [, errorClass] of concrete) {
      const group = (ideact as unknown as Record<string, ErrorClass>)[groupOf(errorClass)!];
      expect(errorClass.fault).toBe(group.fault);
    }
  });

  it('lists every class, and only existing classes, under its group with when and how to fix', () => {
    const rows = documentedRows();
    const expected = concrete
      .map(([name, errorClass]) => `${errorClass.code} ${name} ${groupOf(errorClass)}`)
      .sort();
    const documented = rows.map((row) => `${row.code} ${row.className} ${row.group}`).sort();
    expect(documented).toEqual(expected);
    for (const row of rows) {
      expect(row.cells).toHaveLength(2);
      for (const cell of row.cells) expect(cell.length).toBeGreaterThan(10);
    }
  });

  it('isInstance holds for the class, its group parent and the base, and not for another group', () => {
    const error = new ideact.UnknownToolError({
      toolName: 'getWether',
      knownTools: ['getWeather'],
    });
    expect(ideact.UnknownToolError.isInstance(error)).toBe(true);
    expect(ideact.ModelBehaviorError.isInstance(error)).toBe(true);
    expect(ideact.IdeactError.isInstance(error)).toBe(true);
    expect(ideact.ProviderError.isInstance(error)).toBe(false);
    expect(ideact.InvalidVesselError.isInstance(error)).toBe(false);
    expect(error.fault).toBe('model');
  });

  it('isInstance works across two loaded copies of the built package, for classes and group parents', () => {
    const entry = join(ROOT, 'dist', 'index.js');
    if (!existsSync(entry))
      throw new Error(`${entry} is missing: run "npm run build" (npm test does).`);
    // Each isolated registry evaluates dist/ afresh: two copies, as with two installs side by side.
    // The entry loads its modules lazily, so the classes are read inside the isolated registry.
    const names = [
      'IdeactError',
      'ProviderTimeoutError',
      'ProviderApiError',
      'ProviderError',
      'ExecutionError',
      'ProviderUnreachableError',
    ] as const;
    const load = () => {
      const classes = {} as Pick<typeof ideact, (typeof names)[number]>;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const copy = require(entry) as typeof ideact;
        for (const name of names) Object.assign(classes, { [name]: copy[name] });
      });
      return classes;
    };
    const first = load();
    const second = load();
    expect(first.IdeactError).not.toBe(second.IdeactError);

    const error = new first.ProviderTimeoutError({
      url: 'http://127.0.0.1:1/v1',
      attempts: 3,
      timeoutMs: 100,
    });
    expect(error instanceof second.IdeactError).toBe(false);
    expect(second.ProviderTimeoutError.isInstance(error)).toBe(true);
    expect(second.ProviderApiError.isInstance(error)).toBe(true);
    expect(second.ProviderError.isInstance(error)).toBe(true);
    expect(second.IdeactError.isInstance(error)).toBe(true);
    expect(second.ExecutionError.isInstance(error)).toBe(false);
    expect(second.ProviderUnreachableError.isInstance(error)).toBe(false);
  });
});
