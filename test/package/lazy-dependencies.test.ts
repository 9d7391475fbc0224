import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The packages `require('ideact')` loads, in a fresh process, by their node_modules name. */
function packagesLoadedBy(script: string): string[] {
  const output = execFileSync(
    process.execPath,
    [
      '-e',
      `${script};
       const names = new Set();
       for (const file of Object.keys(require.cache)) {
         const match = file.match(/node_modules\\/((@[^/]+\\/)?[^/]+)/);
         if (match) names.add(match[1]);
       }
       process.stdout.write(JSON.stringify([...names].sort()));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(output) as string[];
}

describe('importing the built package', () => {
  it('loads the heavy dependencies only when they are used (the OpenAI client, ajv, class-validator)', () => {
    expect(packagesLoadedBy("require('./dist')")).toEqual(['reflect-metadata', 'typedi']);
  });

  it('loads ajv on the first validation and the openai client with the first OpenAIProvider', () => {
    const loaded = packagesLoadedBy(
      "const ideact = require('./dist'); ideact.validateJson({ type: 'string' }, 'x'); new ideact.OpenAIProvider({ apiKey: 'test' })",
    );
    expect(loaded).toEqual(expect.arrayContaining(['ajv', 'ajv-formats', 'openai']));
    expect(loaded).not.toContain('class-validator');
  });
});
