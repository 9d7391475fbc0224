import {
  ContainerConfigurationError,
  Executor,
  MODULE_RUNNER,
  agentFromContainer,
  createContainer,
  disposeContainer,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

const echo: ToolSchema = {
  type: 'object',
  properties: { _tool: { const: 'echo' }, text: { type: 'string' } },
  required: ['_tool', 'text'],
};

describe('agentFromContainer (R-LOOP-2, R-MOD-5)', () => {
  it('installs the nested-agent runner in the container Executor through MODULE_RUNNER', () => {
    const container = createContainer({
      tools: [echo],
      activities: [{ echo: (params) => params.text }],
      provider: new ScriptedProvider([]),
    });
    try {
      agentFromContainer(container);
      expect(container.get(Executor).moduleRunner).toBe(container.get(MODULE_RUNNER));
    } finally {
      disposeContainer(container);
    }
  });

  it('fails with a fix when the container already built its Executor (nested agents would be lost)', () => {
    const container = createContainer({
      tools: [echo],
      activities: [{ echo: (params) => params.text }],
      provider: new ScriptedProvider([]),
    });
    try {
      container.get(Executor);
      expect(() => agentFromContainer(container)).toThrow(ContainerConfigurationError);
      expect(() => agentFromContainer(container)).toThrow(
        /before anything calls container.get\(Executor\)/,
      );
    } finally {
      disposeContainer(container);
    }
  });
});
