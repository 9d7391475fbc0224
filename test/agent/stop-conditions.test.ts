import { aborted, maxTime, maxTokens, maxTurns, stopWhen } from '../../src/agent/stop-conditions';
import { createInitialState } from '../../src/runs/state-tree';

describe('stop conditions (R-LOOP-3)', () => {
  const state = createInitialState({ task: 'x' });
  state.usage = {
    inputTokens: 60,
    outputTokens: 40,
    cachedTokens: 0,
    steps: 8,
    turns: 2,
    elapsedMs: 500,
  };

  it('R-LOOP-3 turn and token limits fire only at a turn boundary', () => {
    expect(maxTurns(2)(state, {})).toBe('max_turns');
    expect(maxTurns(3)(state, {})).toBeUndefined();
    expect(maxTokens(100)(state, {})).toBe('max_tokens');
    expect(maxTokens(101)(state, {})).toBeUndefined();
    const midTurn = { ...state, nextStep: { module: 'actor' as const, args: { nodeId: 0 } } };
    expect(maxTurns(1)(midTurn, {})).toBeUndefined();
    expect(maxTokens(1)(midTurn, {})).toBeUndefined();
  });

  it('R-LOOP-3 time and abort fire at any step; stopWhen composes, first wins', () => {
    expect(maxTime(500)(state, {})).toBe('max_time');
    expect(maxTime(501)(state, {})).toBeUndefined();
    const controller = new AbortController();
    expect(aborted()(state, { signal: controller.signal })).toBeUndefined();
    controller.abort();
    expect(aborted()(state, { signal: controller.signal })).toBe('aborted');
    expect(stopWhen(maxTurns(9), maxTime(10), aborted(controller.signal))(state, {})).toBe(
      'max_time',
    );
    expect(stopWhen(maxTurns(9))(state, {})).toBeUndefined();
  });
});
