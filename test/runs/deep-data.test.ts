import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Executor,
  InvalidActivityOutputError,
  InvalidIdeaError,
  MAX_JSON_DEPTH,
  createAgent,
  parseIdea,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** Issue 14 item 13: data nested 3,000 levels deep is a typed error naming the culprit, never a RangeError. */
function nested(levels: number): unknown {
  return JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as unknown;
}

const deepTool: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'deep' }, _outputPath: { type: 'string' } },
  required: ['_tool'],
};

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-deep-'));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

describe('an Activity output nested 3,000 levels deep', () => {
  it('fails the Call with InvalidActivityOutputError naming the tool and the activity; the run goes on and is saved', async () => {
    const stateFile = path.join(directory, 'run.json');
    const provider = new ScriptedProvider([
      { calls: [{ _tool: 'deep', _outputPath: 'state.tree' }], output: null },
      { calls: [], output: 'gave up' },
    ]);
    const agent = createAgent({
      tools: [deepTool],
      activities: [{ deep: () => nested(3000) }],
      provider,
    });
    const result = await agent.run({ task: 'Build a tree', stateFile });
    expect(result.stopReason).toBe('output');
    expect(result.failedCalls).toEqual([
      expect.objectContaining({ tool: 'deep', code: 'INVALID_ACTIVITY_OUTPUT' }),
    ]);
    const message = result.failedCalls[0]!.message;
    expect(message).toContain('Activity "deep" of tool "deep"');
    expect(message).toContain(`nested more than MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) levels deep`);
    await expect(fs.access(stateFile)).resolves.toBeUndefined();
  });

  it('a typed executor.call rejects with InvalidActivityOutputError too', async () => {
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [deepTool],
      activities: { deep: () => nested(3000) },
    });
    const error = await executor.call({ toolName: 'deep' }, {}).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(InvalidActivityOutputError.isInstance(error)).toBe(true);
    expect((error as InvalidActivityOutputError).code).toBe('INVALID_ACTIVITY_OUTPUT');
    expect((error as InvalidActivityOutputError).toolName).toBe('deep');
  });
});

describe('an Idea nested 3,000 levels deep', () => {
  const deepIdea = (): unknown => ({
    context: [{ type: 'data', kind: 'tree', data: nested(3000) }],
    schema: { type: 'object' },
  });

  it('parseIdea throws InvalidIdeaError naming the source and the JSON path', () => {
    let caught: unknown;
    try {
      parseIdea(deepIdea(), 'deep.json');
    } catch (error) {
      caught = error;
    }
    expect(InvalidIdeaError.isInstance(caught)).toBe(true);
    const error = caught as InvalidIdeaError;
    expect(error.code).toBe('INVALID_IDEA');
    expect(error.source).toBe('deep.json');
    expect(error.jsonPath).toMatch(/^\/context\/0\/data\/a\/a\/a\/…\(\d+ more\)…\/a\/a\/a$/);
    expect(error.message).toContain('deep.json');
    expect(error.message).toContain(`MAX_JSON_DEPTH (${MAX_JSON_DEPTH})`);
  });

  it('a module Call of that Idea file fails with INVALID_IDEA naming the file', async () => {
    await fs.writeFile(path.join(directory, 'deep.json'), JSON.stringify(deepIdea()));
    const executor = new Executor({
      provider: new ScriptedProvider([]),
      tools: [
        {
          type: 'object',
          properties: { _tool: { const: 'expert' }, _module: { const: 'deep.json' } },
          required: ['_tool'],
        },
      ],
      moduleRoot: directory,
    });
    const [result] = await executor.call({ _tool: 'expert' }, []);
    expect(result).toMatchObject({ type: 'result', error: { code: 'INVALID_IDEA' } });
    expect(result?.type === 'result' ? result.error?.message : '').toContain('deep.json');
  });
});
