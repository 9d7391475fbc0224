import type { RunEvent } from 'ideact';
import { ProgressLines } from '../../src/cli/progress/progress-lines';
import { ProgressTree } from '../../src/cli/progress/progress-tree';
import { createRunProgress } from '../../src/cli/progress/run-progress';
import { TerminalFrame } from '../../src/cli/progress/terminal-frame';

/**
 * The progress views of `ideact run` (issue 16 item 8) fed with hand-made events: the live tree a
 * terminal shows, the plain lines elsewhere, and the in-place redraw.
 */

const T = 1_700_000_000_000;
const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cachedTokens: 0,
});
const runUsage = (input: number, output: number, turns: number) => ({
  ...usage(input, output),
  steps: turns * 4,
  turns,
  elapsedMs: 2_000,
});

/** A root run that calls `research` (a nested agent) while its first turn streams, then answers. */
const EVENTS: RunEvent[] = [
  { type: 'run-start', runId: 'run_a', path: ['run_a'], time: T, chain: [], resumed: false },
  {
    type: 'request-start',
    runId: 'run_a',
    path: ['run_a'],
    time: T + 10,
    requestId: 'run_a#1',
    model: 'gpt-x',
    schemaName: 'vessel',
    attempt: 0,
  },
  {
    type: 'solution-delta',
    runId: 'run_a',
    path: ['run_a'],
    time: T + 20,
    requestId: 'run_a#1',
    index: 0,
    delta: '{"calls":[',
  },
  {
    type: 'call-start',
    runId: 'run_a',
    path: ['run_a'],
    time: T + 100,
    callId: '2:0',
    tool: 'research',
    params: { topic: 'rain' },
    eager: true,
  },
  {
    type: 'run-start',
    runId: 'run_b',
    path: ['run_a', '2:0', 'run_b'],
    time: T + 110,
    chain: ['/ideas/research.json'],
    resumed: false,
  },
  {
    type: 'request-end',
    runId: 'run_a',
    path: ['run_a'],
    time: T + 300,
    requestId: 'run_a#1',
    model: 'gpt-x-2025',
    usage: usage(100, 20),
  },
  {
    type: 'request-start',
    runId: 'run_b',
    path: ['run_a', '2:0', 'run_b'],
    time: T + 310,
    requestId: 'run_b#1',
    model: 'gpt-x',
    attempt: 0,
  },
  {
    type: 'request-end',
    runId: 'run_b',
    path: ['run_a', '2:0', 'run_b'],
    time: T + 900,
    requestId: 'run_b#1',
    model: 'gpt-x',
    usage: usage(50, 10),
    error: { code: 'INVALID_SOLUTION', message: 'bad' },
  },
  {
    type: 'run-end',
    runId: 'run_b',
    path: ['run_a', '2:0', 'run_b'],
    time: T + 1_000,
    stopReason: 'output',
    output: 'wet',
    usage: runUsage(50, 10, 1),
  },
  {
    type: 'call-end',
    runId: 'run_a',
    path: ['run_a'],
    time: T + 1_100,
    callId: '2:0',
    tool: 'research',
    output: 'wet',
  },
  {
    type: 'step',
    runId: 'run_a',
    path: ['run_a'],
    time: T + 1_200,
    module: 'actor',
    next: 'prompter',
    usage: runUsage(150, 30, 1),
  },
];

describe('ProgressTree (the live view on a terminal)', () => {
  it('nests requests and Calls under their run, and a nested run under its Call', () => {
    const tree = new ProgressTree();
    for (const event of EVENTS) tree.apply(event);
    const lines = tree.lines(T + 1_500);
    expect(lines).toEqual([
      expect.stringMatching(/^\S run run_a · running · 1 turn\(s\) · 180 tokens · 1\.5s$/),
      '  ✓ chat gpt-x-2025 (vessel) · 120 tokens (100 in, 20 out) · 0.3s',
      '  ✓ call research [2:0] (eager) · 1.0s',
      '    ✓ run research.json run_b · output · 1 turn(s) · 60 tokens · 0.9s',
      '      ✗ chat gpt-x · 60 tokens (50 in, 10 out) · 0.6s · INVALID_SOLUTION: bad',
    ]);
    expect(lines[0]).not.toMatch(/^[✓✗]/); // still running: a spinner frame
    // The live view shows a finished nested run as one line.
    expect(tree.lines(T + 1_500, { collapseEnded: true })).toHaveLength(4);
  });

  it('shows streamed characters while a request runs, and a failed Call with its error', () => {
    const tree = new ProgressTree();
    for (const event of EVENTS.slice(0, 4)) tree.apply(event);
    tree.apply({
      type: 'call-end',
      runId: 'run_a',
      path: ['run_a'],
      time: T + 400,
      callId: '2:0',
      tool: 'research',
      error: { code: 'ACTIVITY_FAILED', message: 'no network' },
    });
    const lines = tree.lines(T + 500);
    expect(lines[1]).toMatch(/^ {2}\S chat gpt-x \(vessel\) · 10 chars · 0\.5s$/);
    expect(lines[2]).toBe('  ✗ call research [2:0] (eager) · 0.3s · ACTIVITY_FAILED: no network');
  });
});

describe('ProgressLines (stderr is not a terminal)', () => {
  it('prints run start/end, request end with tokens, Call start/end and steps, indented by depth', () => {
    const lines = new ProgressLines(T);
    const text = EVENTS.map((event) => lines.line(event) ?? '').join('');
    expect(text).toBe(
      [
        'ideact: run run_a started',
        'ideact:   call research [2:0] started (eager)',
        'ideact:     run research.json run_b started',
        'ideact:   chat gpt-x-2025 · 120 tokens (100 in, 20 out) · 0.3s',
        'ideact:       chat gpt-x · 60 tokens (50 in, 10 out) · 0.6s · INVALID_SOLUTION',
        'ideact:     run run_b ended: output · 1 turn(s) · 60 tokens · 2.0s',
        'ideact:   call research [2:0] done · 1.0s',
        'ideact:   turn 1 · actor · 180 tokens · 1.2s',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing for deltas and prompter steps', () => {
    const lines = new ProgressLines(T);
    expect(lines.line(EVENTS[2]!)).toBeUndefined();
    expect(
      lines.line({ ...(EVENTS[10] as Extract<RunEvent, { type: 'step' }>), module: 'prompter' }),
    ).toBeUndefined();
  });
});

describe('TerminalFrame (redraw in place)', () => {
  function frame(size = { columns: 40, rows: 5 }) {
    let written = '';
    const view = new TerminalFrame(
      (text) => (written += text),
      () => size,
    );
    return { view, take: () => [written, (written = '')][0]! };
  }

  it('erases the lines it drew before drawing again, and writes notices above the block', () => {
    const { view, take } = frame();
    view.draw(['a', 'b']);
    expect(take()).toBe('a\nb\n');
    view.draw(['a', 'b', 'c']);
    expect(take()).toBe('\u001b[2F\u001b[Ja\nb\nc\n');
    view.log('ideact: notice\n', ['a']);
    expect(take()).toBe('\u001b[3F\u001b[Jideact: notice\na\n');
    view.close(['done']);
    expect(take()).toBe('\u001b[1F\u001b[Jdone\n');
    view.draw(['x']);
    expect(take()).toBe('x\n'); // after close() nothing above is erased
  });

  it('cuts lines to the width and keeps the newest lines that fit the height', () => {
    const { view, take } = frame({ columns: 12, rows: 4 });
    view.draw(['0123456789abcdef', '1', '2', '3', '4']);
    expect(take()).toBe('… 3 more l…\n3\n4\n'); // '… 3 more line(s) above', cut to 11 columns
  });
});

describe('createRunProgress', () => {
  it('writes plain lines when the io has no terminal, and the tree with ANSI redraws when it has one', () => {
    let plain = '';
    const lines = createRunProgress(
      { stdout: () => undefined, stderr: (text) => (plain += text), env: {} },
      T,
    );
    expect(lines.wantsDeltas).toBe(false);
    lines.onEvent(EVENTS[0]!);
    lines.notice('ideact: note\n');
    lines.finish();
    expect(plain).toBe('ideact: run run_a started\nideact: note\n');

    let live = '';
    const tree = createRunProgress(
      {
        stdout: () => undefined,
        stderr: (text) => (live += text),
        env: {},
        stderrTerminal: () => ({ columns: 80, rows: 24 }),
      },
      T,
    );
    expect(tree.wantsDeltas).toBe(true);
    for (const event of EVENTS) tree.onEvent(event);
    tree.notice('ideact: note\n');
    tree.finish();
    expect(live).toContain('ideact: note\n');
    expect(
      live.endsWith(
        '  ✓ call research [2:0] (eager) · 1.0s\n    ✓ run research.json run_b · output · 1 turn(s) · 60 tokens · 0.9s\n',
      ),
    ).toBe(true);
    tree.notice('ideact: after\n');
    expect(live.endsWith('ideact: after\n')).toBe(true);
  });
});
