import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IsIn, IsInt, Min } from 'class-validator';
import {
  ActivityFailedError,
  Executor,
  ImportNotAllowedError,
  InvalidParamsError,
  ParamsValidationError,
  Tool,
  UnknownToolError,
  createAgent,
  createContainer,
  disposeContainer,
  type Call,
  type Message,
  type ResultMessage,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { REPO_ROOT, typeCheck, type Diagnostic } from '../support/compile-typescript';

const paint: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'paint' },
    color: { type: 'string', enum: ['red', 'blue'] },
    coats: { type: 'integer', minimum: 1 },
  },
  required: ['_tool', 'color'],
};
const crash: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'crash' } },
  required: ['_tool'],
};
const note: ToolSchema = {
  type: 'object',
  properties: {
    _tool: { const: 'note' },
    _imports: { type: 'array', items: { enum: ['notes', 'state'] } },
  },
  required: ['_tool'],
};

/** A codegen-shaped reference to `paint` (what `ideact codegen` emits). */
class Paint {
  static readonly toolName = 'paint';
  declare static readonly __ideactTypes?: {
    input: { color: 'red' | 'blue'; coats?: number };
    output: string;
  };
}
class Crash {
  static readonly toolName = 'crash';
  declare static readonly __ideactTypes?: { input: Record<string, never>; output: never };
}
class Note {
  static readonly toolName = 'note';
  declare static readonly __ideactTypes?: { input: Record<string, never>; output: number };
}
class Ghost {
  static readonly toolName = 'ghost';
  declare static readonly __ideactTypes?: { input: Record<string, never>; output: never };
}

const bug = new TypeError("Cannot read properties of undefined (reading 'brush')");
const painted: unknown[] = [];
const executor = new Executor({
  provider: new ScriptedProvider([]),
  tools: [paint, crash, note],
  activities: [
    {
      paint: (params) => (painted.push(params), `painted ${String(params.color)}`),
      crash: () => {
        throw bug;
      },
      note: (_params, activity) => activity.context.length,
    },
  ],
});
const context: Message[] = [
  { type: 'data', kind: 'notes', data: { text: 'buy paint' } },
  { type: 'state', state: { room: 'kitchen' } },
];

function result(messages: Message[]): ResultMessage {
  const first = messages[0];
  if (first?.type !== 'result') throw new Error('expected a result message first');
  return first;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the typed call to reject');
}

beforeEach(() => {
  painted.length = 0;
});

describe('executor.call(call, context): never rejects for a failed Call (R-CALL-5, issue 14 item 11)', () => {
  it('an Activity throwing resolves to an ACTIVITY_FAILED result keeping the original message', async () => {
    const failed = result(await executor.call({ _tool: 'crash' }, context));
    expect(failed.error?.code).toBe('ACTIVITY_FAILED');
    expect(failed.error?.message).toContain("reading 'brush'");
    expect(failed.output).toBeUndefined();
  });

  it('invalid params resolve to an INVALID_PARAMS result naming the path and the allowed values', async () => {
    const failed = result(await executor.call({ _tool: 'paint', color: 'purple' }, context));
    expect(failed.error?.code).toBe('INVALID_PARAMS');
    expect(failed.error?.message).toContain(
      '/color: must be equal to one of the allowed values: "red", "blue"',
    );
    expect(painted).toEqual([]);
  });

  it('an unknown tool resolves to an UNKNOWN_TOOL result naming it and the known tools', async () => {
    const failed = result(await executor.call({ _tool: 'ghost' }, context));
    expect(failed.error?.code).toBe('UNKNOWN_TOOL');
    expect(failed.error?.message).toContain('"ghost"');
    expect(failed.error?.message).toContain('Known tools: paint, crash, note');
  });
});

describe('executor.call(Tool, params): always rejects for a failed Call (issue 14 item 11)', () => {
  it('resolves to the output when the Call succeeds', async () => {
    await expect(executor.call(Paint, { color: 'red' })).resolves.toBe('painted red');
  });

  it('an Activity throwing rejects with ActivityFailedError whose cause is the original error', async () => {
    const error = await rejection(executor.call(Crash, {}, context));
    expect(ActivityFailedError.isInstance(error)).toBe(true);
    const failed = error as ActivityFailedError;
    expect(failed.code).toBe('ACTIVITY_FAILED');
    expect(failed.cause).toBe(bug);
    expect(failed.message).toContain('"crash"');
  });

  it('invalid params reject with InvalidParamsError naming the path and the allowed values', async () => {
    const wrong = { color: 'purple' } as unknown as { color: 'red' | 'blue' };
    const error = await rejection(executor.call(Paint, wrong));
    expect(InvalidParamsError.isInstance(error)).toBe(true);
    const invalid = error as InvalidParamsError;
    expect(invalid.code).toBe('INVALID_PARAMS');
    expect(invalid.issues).toEqual([
      { path: '/color', message: 'must be equal to one of the allowed values: "red", "blue"' },
    ]);
    expect(invalid.message).toContain('"paint"');
    expect(painted).toEqual([]);
  });

  it('an unknown tool rejects with UnknownToolError naming it and the known tools', async () => {
    const error = await rejection(executor.call(Ghost, {}));
    expect(UnknownToolError.isInstance(error)).toBe(true);
    const unknown = error as UnknownToolError;
    expect(unknown.code).toBe('UNKNOWN_TOOL');
    expect(unknown.toolName).toBe('ghost');
    expect(unknown.knownTools).toEqual(['paint', 'crash', 'note']);
  });

  it('agent.call(Tool, params) rejects the same way', async () => {
    const agent = createAgent({
      tools: [paint],
      activities: [{ paint: () => 'never' }],
      provider: new ScriptedProvider([]),
    });
    const wrong = { color: 'purple' } as unknown as { color: 'red' | 'blue' };
    const error = await rejection(agent.call(Paint, wrong));
    expect(InvalidParamsError.isInstance(error)).toBe(true);
    expect((error as InvalidParamsError).message).toContain('"red", "blue"');
  });
});

describe('a string _imports on a tool whose imports the model chooses (R-IMP-1, issue 14 item 13)', () => {
  it('is IMPORT_NOT_ALLOWED naming the tool and the value, never silently ignored', async () => {
    // What a model (or untyped JSON) may write: `_imports` as a string.
    const stringImports = { _tool: 'note', _imports: 'notes' } as unknown as Call;
    const failed = result(await executor.call(stringImports, context));
    expect(failed.error?.code).toBe('IMPORT_NOT_ALLOWED');
    expect(failed.error?.message).toContain('tool "note"');
    expect(failed.error?.message).toContain('"_imports": "notes"');
    expect(failed.error?.message).toContain('"_imports": ["notes"]');

    const error = await rejection(
      executor.call(Note, { _imports: 'notes' } as unknown as Record<string, never>, context),
    );
    expect(ImportNotAllowedError.isInstance(error)).toBe(true);
    const refused = error as ImportNotAllowedError;
    expect(refused.code).toBe('IMPORT_NOT_ALLOWED');
    expect(refused.toolName).toBe('note');
    expect(refused.written).toBe('notes');
    expect(refused.allowed).toEqual(['notes', 'state']);
  });

  it('a list of kinds still works, and a list holding a non-string is refused too', async () => {
    expect(
      result(await executor.call({ _tool: 'note', _imports: ['notes'] }, context)).output,
    ).toBe(1);
    const objectImports = { _tool: 'note', _imports: [{ kind: 1 }] } as unknown as Call;
    const failed = result(await executor.call(objectImports, context));
    expect(failed.error?.code).toBe('IMPORT_NOT_ALLOWED');
    expect(failed.error?.message).toContain('[{"kind":1}]');
  });
});

describe('a @Tool class called with a wrong enum value at run time (issue 14 item 5)', () => {
  it('rejects with ParamsValidationError naming the path and the allowed values', async () => {
    @Tool()
    class Brush {
      static readonly toolName = 'brush';
      declare static readonly __ideactTypes?: {
        input: { color: 'red' | 'blue'; width: number };
        output: string;
      };
      @IsIn(['red', 'blue'])
      color!: 'red' | 'blue';
      @IsInt()
      @Min(1)
      width!: number;
    }
    const container = createContainer({
      tools: [Brush],
      activities: [{ brush: (params) => String(params.color) }],
      provider: new ScriptedProvider([]),
    });
    try {
      const classExecutor = container.get(Executor);
      const wrong = { color: 'purple', width: 0 } as unknown as { color: 'red'; width: number };
      const error = await rejection(classExecutor.call(Brush, wrong));
      expect(ParamsValidationError.isInstance(error)).toBe(true);
      const invalid = error as ParamsValidationError;
      expect(invalid.code).toBe(ParamsValidationError.code);
      expect(invalid.toolName).toBe('brush');
      expect(invalid.message).toMatch(
        /color: must be equal to one of the allowed values: "red", "blue"/,
      );
      expect(invalid.message).toMatch(/width: must be >= 1/);
      const failed = result(
        await classExecutor.call({ _tool: 'brush', color: 'purple', width: 2 }, []),
      );
      expect(failed.error?.code).toBe(ParamsValidationError.code);
      await expect(classExecutor.call(Brush, { color: 'blue', width: 2 })).resolves.toBe('blue');
    } finally {
      disposeContainer(container);
    }
  });
});

describe('typed calls reject wrong values at compile time: params are never inferred (NoInfer)', () => {
  let diagnostics: Diagnostic[];
  let scratch: string;

  beforeAll(async () => {
    await fs.mkdir(path.join(REPO_ROOT, '.ideact-tmp'), { recursive: true });
    scratch = await fs.mkdtemp(path.join(REPO_ROOT, '.ideact-tmp', 'no-infer-'));
    const file = path.join(scratch, 'typed-calls.ts');
    await fs.writeFile(
      file,
      [
        "import type { Agent, Executor } from 'ideact';",
        'class Paint {',
        "  static readonly toolName = 'paint';",
        "  declare static readonly __ideactTypes?: { input: { color: 'red' | 'blue' }; output: string };",
        '}',
        'declare const executor: Executor;',
        'declare const agent: Agent;',
        'export async function right(): Promise<string> {',
        "  return (await executor.call(Paint, { color: 'red' })) + (await agent.call(Paint, { color: 'blue' }));",
        '}',
        'export async function executorLiteral(): Promise<void> {',
        "  await executor.call(Paint, { color: 'purple' });",
        '}',
        'export async function executorWidened(): Promise<void> {',
        "  const params = { color: 'purple' };",
        '  await executor.call(Paint, params);',
        '}',
        'export async function agentWidened(): Promise<void> {',
        "  const params = { color: 'purple' };",
        '  await agent.call(Paint, params);',
        '}',
        '',
      ].join('\n'),
    );
    diagnostics = typeCheck([file]);
  });
  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });

  it("a literal or a widened string 'purple' for 'red' | 'blue' fails; the right call compiles", () => {
    const lines = diagnostics.map((diagnostic) => diagnostic.message);
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual([2769, 2769, 2345]);
    expect(lines[0]).toContain(`Type '"purple"' is not assignable to type '"red" | "blue"'`);
    expect(lines[1]).toContain(`Type 'string' is not assignable to type '"red" | "blue"'`);
    expect(lines[2]).toContain(`Type 'string' is not assignable to type '"red" | "blue"'`);
  });
});
