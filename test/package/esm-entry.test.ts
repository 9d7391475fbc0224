import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Issue 28: the package's ES module entry (dist/index.mjs, made by scripts/esm-entry.mjs) exposes
 * every named export of the CommonJS entry, and classes keep their identity across the two module
 * systems for `instanceof`, `isInstance`, subclassing and the container's lookups. Runs the built
 * package (`npm run build` first) in a child process, as a user's `.mjs` file would.
 */
const ROOT = join(__dirname, '..', '..');

type Report = {
  cjsNames: string[];
  esmNames: string[];
  errors: Record<string, unknown>;
  subclass: Record<string, unknown>;
  sameValues: Record<string, boolean>;
  container: Record<string, boolean>;
};

let report: Report;
beforeAll(() => {
  const output = execFileSync(
    process.execPath,
    [join(__dirname, 'fixtures', 'esm-entry-report.mjs')],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  report = JSON.parse(output) as Report;
});

describe('the ES module entry (issue 28)', () => {
  it('exposes every named export of the CommonJS entry, and only those', () => {
    expect(report.esmNames).toEqual(report.cjsNames);
    expect(report.cjsNames.length).toBeGreaterThan(200);
  });

  it('an error thrown in one module system is an instance of the class imported from the other', () => {
    expect(report.errors).toEqual({
      cjsErrorIsInstanceOfEsmClass: true,
      cjsErrorInstanceofEsmClass: true,
      cjsErrorInstanceofEsmBase: true,
      esmErrorIsInstanceOfCjsClass: true,
      esmErrorInstanceofCjsClass: true,
      esmErrorCode: 'INVALID_PARAMS',
      esmErrorName: 'InvalidParamsError',
    });
  });

  it('a class extends a stand-in like the real class, with its own statics', () => {
    expect(report.subclass).toEqual({
      instanceofEsm: true,
      instanceofCjs: true,
      code: 'MINE',
      name: 'MineError',
    });
  });

  it('constants, tables and tokens are the same values', () => {
    expect(report.sameValues).toEqual({
      constants: true,
      table: true,
      isArray: true,
      tokenIsToken: true,
    });
  });

  it('the container finds its services by the stand-ins of classes and tokens', () => {
    expect(report.container).toEqual({ executor: true, executorInstance: true, provider: true });
  });
});
