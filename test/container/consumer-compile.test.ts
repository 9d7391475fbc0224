import * as path from 'node:path';
import { typeCheck } from '../support/compile-typescript';

const FIXTURE = path.join(__dirname, 'fixtures', 'consumer.ts');

describe('a strict TypeScript consumer project', () => {
  it("compiles `import { Tool, Output, Activity, Module, Imports, OutputPath, toolSchema, createContainer, Executor } from 'ideact'` with zero diagnostics", () => {
    expect(typeCheck([FIXTURE])).toEqual([]);
  });

  it('runs: the decorated classes give schemas and the container executes both kinds of call', async () => {
    const consumer = await import('./fixtures/consumer');
    const { toolSchema } = await import('ideact');
    expect(toolSchema(consumer.WeatherReport).properties._tool).toEqual({ const: 'weatherReport' });
    const messages = await consumer.main();
    expect(messages[0]).toMatchObject({ type: 'result', output: { summary: 'short' } });
    expect(messages[1]).toMatchObject({ type: 'state' });
  });
});
