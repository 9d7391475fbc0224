import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidSchemaError, ModuleLoader, Toolkit, type LoadedModule } from 'ideact';
import { makeModuleRoot, removeRoot, summarizeIdea, tool } from './executor-fixtures';

let root: string;
beforeAll(async () => {
  root = await makeModuleRoot({ 'summarize.json': summarizeIdea });
});
afterAll(() => removeRoot(root));

/** A loader that counts how often each module is loaded. */
class CountingLoader extends ModuleLoader {
  loads = 0;
  override load(reference: string): Promise<LoadedModule> {
    this.loads += 1;
    return super.load(reference);
  }
}

describe('Toolkit (R-LOOP-2, R-MOD-4)', () => {
  const upfront = tool('summarize', {
    _module: { const: 'summarize.json' },
    _resolution: { const: 'upfront' },
  });
  const executionTime = tool('later', { _module: { const: 'missing.json' } });
  const inline = tool('add', { a: { type: 'number' } });

  it('lists tools with upfront modules resolved once; execution-time modules are not loaded', async () => {
    const loader = new CountingLoader({ moduleRoot: root });
    const toolkit = new Toolkit({ tools: [upfront, executionTime, inline], loader });
    expect(toolkit.names()).toEqual(['summarize', 'later', 'add']);
    const [first, second] = await Promise.all([toolkit.list(), toolkit.list()]);
    expect(first?.[0]?.properties.text).toEqual({
      type: 'string',
      description: 'MODULE-INPUT-SCHEMA',
    });
    expect(first?.[0]?.properties._output).toEqual(summarizeIdea.schema);
    expect(first?.[1]).toBe(executionTime);
    expect(first?.[2]).toBe(inline);
    expect(second).toEqual(first);
    expect(await toolkit.get('summarize')).toEqual(first?.[0]);
    expect(await toolkit.get('nope')).toBeUndefined();
    expect(loader.loads).toBe(1);
  });

  it('retries a failed upfront resolution on the next list()', async () => {
    const loader = new ModuleLoader({ moduleRoot: root });
    const pending = tool('soon', {
      _module: { const: 'soon.json' },
      _resolution: { const: 'upfront' },
    });
    const toolkit = new Toolkit({ tools: [pending], loader });
    await expect(toolkit.list()).rejects.toThrow('soon.json');
    await fs.writeFile(path.join(root, 'soon.json'), JSON.stringify(summarizeIdea));
    const [resolved] = await toolkit.list();
    expect(resolved?.properties._output).toEqual(summarizeIdea.schema);
  });

  it('R-TOOL-5 a name defined twice keeps its later definition, at its own position (was InvalidSchemaError)', async () => {
    const later = tool('add', { a: { type: 'number' }, b: { type: 'number' } });
    const toolkit = new Toolkit({ tools: [inline, executionTime, later] });
    expect(toolkit.names()).toEqual(['later', 'add']);
    const listed = await toolkit.list();
    expect(listed).toEqual([executionTime, later]);
    expect(await toolkit.get('add')).toBe(later);
  });

  it('a tool without a _tool name is still an InvalidSchemaError', () => {
    expect(() => new Toolkit({ tools: [{ type: 'object' } as never] })).toThrow(InvalidSchemaError);
  });
});
