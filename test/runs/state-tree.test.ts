import type { AgentLimits } from '../../src/runs/agent-state';
import {
  appendNode,
  assertValidState,
  contextMessages,
  createInitialState,
  markState,
  pathTo,
  rollbackState,
} from '../../src/runs/state-tree';
import { InvalidAgentStateError } from '../../src/errors/invalid-agent-state.error';

describe('state tree (R-LOOP-1)', () => {
  it('R-LOOP-1 starts with the context and the task as a chain of input nodes, prompter next', () => {
    const state = createInitialState({
      task: 'Plan a trip',
      context: [{ type: 'system', text: 'You plan trips.' }],
      limits: { maxTurns: 3 },
    });
    expect(state.version).toBe(1);
    expect(state.nodes.map((node) => [node.id, node.parent, node.children])).toEqual([
      [0, null, [1]],
      [1, 0, []],
    ]);
    expect(state.nodes[1]?.message).toEqual({ type: 'text', role: 'user', text: 'Plan a trip' });
    expect(state.head).toBe(1);
    expect(state.nextStep).toEqual({ module: 'prompter', args: {} });
    expect(state.limits).toEqual({ maxTurns: 3 });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('a hand-edited parent link pointing forward (a cycle) is a typed error naming the node', () => {
    const state = createInitialState({ task: 'x', context: [{ type: 'system', text: 's' }] });
    state.nodes[0]!.parent = 1; // 0 → 1 → 0
    expect(() => pathTo(state)).toThrow(InvalidAgentStateError);
    expect(() => pathTo(state)).toThrow('/nodes/0/parent');
  });

  it('a failing step is rolled back to the last mark: added nodes, head, next step and usage', () => {
    const state = createInitialState({ task: 'x' });
    const mark = markState(state);
    appendNode(state, { type: 'text', text: 'added' }, { module: 'actor' });
    state.usage.turns += 1;
    state.nextStep = { module: 'generator', args: { messages: [] } };
    rollbackState(state, mark);
    expect(state.nodes).toHaveLength(1);
    expect(state.nodes[0]!.children).toEqual([]);
    expect(state.head).toBe(0);
    expect(state.usage.turns).toBe(0);
    expect(state.nextStep).toEqual({ module: 'prompter', args: {} });
  });

  it('limits are copied key by key like a spread: a rollback restores them, edits of a copy stay there', () => {
    const limits = { maxTurns: 3, maxTokens: undefined, custom: 'kept' } as AgentLimits;
    const state = createInitialState({ task: 'x', limits });
    expect(state.limits).not.toBe(limits);
    expect(Object.entries(state.limits)).toEqual(Object.entries(limits));
    const mark = markState(state);
    state.limits.maxTurns = 10;
    expect(limits.maxTurns).toBe(3);
    rollbackState(state, mark);
    expect(Object.entries(state.limits)).toEqual(Object.entries(limits));
    expect(state.limits).not.toBe(mark.limits);
  });

  it('R-LOOP-1 keeps sibling options in the tree while the path follows the head', () => {
    const state = createInitialState({ task: 'x' });
    const first = appendNode(
      state,
      { type: 'vessel', calls: [], output: 1 },
      { module: 'discriminator', chosen: false },
      0,
      {
        makeHead: false,
      },
    );
    const second = appendNode(
      state,
      { type: 'vessel', calls: [], output: 2 },
      { module: 'discriminator', chosen: true },
      0,
    );
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(state.nodes[0]?.children).toEqual([1, 2]);
    expect(pathTo(state).map((node) => node.id)).toEqual([0, 2]);
    const result = appendNode(
      state,
      { type: 'result', call: { _tool: 'a' }, output: 5 },
      { module: 'actor' },
    );
    expect(result.id).toBe(3);
    expect(contextMessages(state)).toEqual([
      { type: 'text', role: 'user', text: 'x' },
      { type: 'result', call: { _tool: 'a' }, output: 5 },
    ]);
  });

  it('rejects broken states with the JSON path at fault', () => {
    const state = createInitialState({ task: 'x' });
    expect(() => assertValidState({ ...state, version: 2 })).toThrow(/\/version/);
    const badStep = { ...state, nextStep: { module: 'actor', args: { nodeId: 0 } } };
    expect(() => assertValidState(badStep, 'run.json')).toThrow(InvalidAgentStateError);
    expect(() => assertValidState(badStep, 'run.json')).toThrow(
      /run\.json.*\/nextStep\/args\/nodeId/,
    );
    const badIds = { ...state, nodes: [{ ...state.nodes[0], id: 7 }] };
    expect(() => assertValidState(badIds)).toThrow(/\/nodes\/0\/id/);
  });
});
