import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The worker API costs nothing until used (issue 18): `require('ideact')` and reading `startWorker`,
 * `RunQueue` and `enqueueRun` load neither the DBOS SDK nor the `pg` driver (the BUILT package).
 */
const ROOT = path.join(__dirname, '..', '..');

it('the DBOS SDK and pg load with the first worker or queue, not with the entry or its exports', () => {
  const output = execFileSync(
    process.execPath,
    [
      '-e',
      `const ideact = require('./dist');
       const names = [typeof ideact.startWorker, typeof ideact.RunQueue, typeof ideact.enqueueRun, typeof ideact.waitForRun];
       const loaded = Object.keys(require.cache).filter((file) => /node_modules\\/(@dbos-inc|pg)\\//.test(file));
       process.stdout.write(JSON.stringify({ names, loaded }));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(JSON.parse(output)).toEqual({
    names: ['function', 'function', 'function', 'function'],
    loaded: [],
  });
});
