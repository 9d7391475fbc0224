import type { AgentNode, AgentState } from 'ideact';
import { renderState } from '../../src/cli/render-state';

/** `ideact inspect` names each output write: method, path, Call and value (R-OUT-5). */
function node(id: number, message: AgentNode['message']): AgentNode {
  return {
    id,
    parent: id === 0 ? null : id - 1,
    children: id === 2 ? [] : [id + 1],
    message,
    metadata: { module: id === 0 ? 'input' : 'actor' },
  };
}

const state: AgentState = {
  version: 1,
  nodes: [
    node(0, { type: 'state', state: { log: ['seed'] } }),
    node(1, {
      type: 'state',
      state: { log: 'line' },
      _outputPath: '†state.log',
      _outputMethod: 'push',
      _call: '3:0',
      _date: '2025-12-08T10:00:00.000Z',
      _instance: '①',
    }),
    node(2, { type: 'data', kind: 'notes', data: { a: { b: [1] } }, _outputPath: '†notes.a' }),
  ],
  head: 2,
  nextStep: { module: 'prompter', args: {} },
  usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, steps: 0, turns: 0, elapsedMs: 0 },
  limits: {},
  chain: [],
};

describe('renderState of output writes (R-OUT-5)', () => {
  it('R-OUT-5 shows the method, the path, the Call and the value written; plain patches as before', () => {
    const text = renderState(state);
    expect(text).toContain('#0 [input] state: {"log":["seed"]}');
    expect(text).toContain('#1 [actor] state ¶①: push †state.log (call 3:0): "line"');
    expect(text).toContain('#2 [actor] data: set †notes.a: {"b":[1]} ← head');
  });
});
