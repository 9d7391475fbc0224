import type { AgentNode, AgentState } from 'ideact';
import { renderState } from '../../src/cli/render-state';

/** `ideact inspect` text: ids, modules, tools called, errors, usage, alternatives, nested runs (R-LOOP-1). */
function node(
  id: number,
  parent: number | null,
  children: number[],
  message: AgentNode['message'],
  metadata: AgentNode['metadata'],
): AgentNode {
  return { id, parent, children, message, metadata };
}

const usage = {
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  steps: 0,
  turns: 0,
  elapsedMs: 0,
};

const nested: AgentState = {
  version: 1,
  nodes: [
    node(0, null, [1], { type: 'input', input: { mood: 'sad' } }, { module: 'input' }),
    node(
      1,
      0,
      [],
      { type: 'vessel', calls: [], output: { melody: 'C D E' } },
      { module: 'discriminator', usage: { inputTokens: 50, outputTokens: 10, cachedTokens: 0 } },
    ),
  ],
  head: 1,
  nextStep: { module: 'done', args: { reason: 'output', output: { melody: 'C D E' } } },
  usage: { ...usage, inputTokens: 50, outputTokens: 10, steps: 4, turns: 1, elapsedMs: 300 },
  limits: { maxTurns: 10 },
  chain: ['/ideas/composer.json'],
};

const state: AgentState = {
  version: 1,
  task: 'Make a record',
  nodes: [
    node(0, null, [1], { type: 'text', text: 'Make a record' }, { module: 'input' }),
    node(1, 0, [2, 3], { type: 'system', text: 'unused' }, { module: 'input' }),
    node(
      2,
      1,
      [],
      { type: 'vessel', calls: [{ _tool: 'weather' }], output: null },
      { module: 'discriminator', chosen: false },
    ),
    node(
      3,
      1,
      [4],
      {
        type: 'vessel',
        calls: [{ _tool: 'composer', mood: 'sad' }, { _tool: 'mixer' }],
        output: null,
      },
      {
        module: 'discriminator',
        chosen: true,
        reason: 'covers the brief',
        usage: { inputTokens: 100, outputTokens: 20, cachedTokens: 64 },
      },
    ),
    node(
      4,
      3,
      [5],
      { type: 'result', call: { _tool: 'composer', mood: 'sad' }, output: { melody: 'C D E' } },
      {
        module: 'actor',
        source: { nodeId: 3, callIndex: 0 },
        nested: [nested],
      },
    ),
    node(
      5,
      4,
      [],
      {
        type: 'result',
        call: { _tool: 'mixer' },
        error: { code: 'ACTIVITY_FAILED', message: 'mixer crashed' },
      },
      { module: 'actor' },
    ),
  ],
  head: 5,
  nextStep: {
    module: 'done',
    args: { reason: 'max_turns', pending: { module: 'prompter', args: {} } },
  },
  usage: {
    inputTokens: 150,
    outputTokens: 30,
    cachedTokens: 64,
    steps: 9,
    turns: 2,
    elapsedMs: 1234,
  },
  limits: { maxTurns: 2 },
  chain: [],
};

describe('renderState (ideact inspect)', () => {
  it('renders the header, the chosen path flat, alternatives indented, nested runs and errors', () => {
    expect(renderState(state, 'state run.json')).toBe(
      [
        'state run.json',
        'task: Make a record',
        'stopped: max_turns; pending: prompter (resumable)',
        'usage: 2 turns, 9 steps, 150 in / 30 out / 64 cached tokens, 1.2 s (limits: maxTurns=2)',
        'nodes:',
        '  #0 [input] text (user): Make a record',
        '  #1 [input] system: unused',
        '    ├─ alternative:',
        '    │  #2 [discriminator] vessel: 1 call [weather], output: null (not chosen)',
        '  #3 [discriminator] vessel: 2 calls [composer, mixer], output: null (reason: covers the brief) (100 in / 20 out / 64 cached tokens)',
        '  #4 [actor] result composer: ok {"melody":"C D E"}',
        '      nested run 1 (module chain: /ideas/composer.json)',
        '      stopped: output; output: {"melody":"C D E"}',
        '      usage: 1 turns, 4 steps, 50 in / 10 out / 0 cached tokens, 0.3 s (limits: maxTurns=10)',
        '      nodes:',
        '        #0 [input] input: {"mood":"sad"}',
        '        #1 [discriminator] vessel: 0 calls [], output: {"melody":"C D E"} (50 in / 10 out / 0 cached tokens) ← head',
        '  #5 [actor] result mixer: ERROR ACTIVITY_FAILED: mixer crashed ← head',
        '',
      ].join('\n'),
    );
  });

  it('is deterministic and says when a state has no nodes', () => {
    const empty: AgentState = {
      ...nested,
      nodes: [],
      head: null,
      nextStep: { module: 'prompter', args: {} },
      chain: [],
    };
    expect(renderState(empty)).toBe(renderState(empty));
    expect(renderState(empty)).toContain('next step: prompter (resumable)\n');
    expect(renderState(empty)).toContain('(no nodes)');
  });
});
