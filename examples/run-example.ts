/**
 * `npm run example -- <name>` runs `examples/<name>/main.ts`. Each example exports `main()`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const examples = readdirSync(__dirname, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(__dirname, entry.name, 'main.ts')))
  .map((entry) => entry.name)
  .sort();

async function runExample(name: string | undefined): Promise<void> {
  if (!name || !examples.includes(name)) {
    process.stderr.write(
      `${name ? `Unknown example "${name}". ` : ''}Usage: npm run example -- <name>\nExamples: ${examples.join(', ')}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const example = (await import(join(__dirname, name, 'main.ts'))) as { main: () => Promise<void> };
  await example.main();
}

runExample(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
