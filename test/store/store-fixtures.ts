import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  appendNode,
  createAgent,
  createInitialState,
  type AgentState,
  type ToolSchema,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { commitEntry } from '../../src/runs/run-journal';
import type { JournalEntry } from '../../src/runs/run-store';

/** Shared by the FileRunStore tests: temp folders, scripted runs and their journal entries. */

/** A fresh empty folder under the OS temp dir, removed after the test file. */
const made: string[] = [];
export async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-store-'));
  made.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(made.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

const weatherTool: ToolSchema = {
  type: 'object',
  description: 'Current weather of a city.',
  properties: { _tool: { const: 'weather' }, city: { type: 'string' } },
  required: ['_tool', 'city'],
};

/** What a scripted run gives: its states after each step, as commits, and the final state. */
export interface RecordedRun {
  runId: string;
  /** The state the run started from (what `store.create()` gets). */
  initial: AgentState;
  /** One commit per step (plus a call-start and call-end around each Actor step). */
  entries: JournalEntry[];
  /** After entry `i`: the state a store must load (its stored form). */
  statesAfter: AgentState[];
  final: AgentState;
}

/**
 * Runs a scripted weather agent step by step over `cities` (one Call per city), recording each
 * step's commit the way a run commits it (commitEntry from the previous node count).
 */
export async function recordRun(cities: string[]): Promise<RecordedRun> {
  const agent = createAgent({
    tools: [weatherTool],
    activities: [{ weather: (params) => ({ city: params.city, sky: 'snow' }) }],
    // One Call per turn, one city each, then the answer.
    provider: new ScriptedProvider([
      ...cities.map((city) => ({ calls: [{ _tool: 'weather', city }], output: null })),
      { calls: [], output: cities.join(' ') },
    ]),
  });
  const run = agent.start({ task: `Weather in ${cities.join(',')}?` });
  const initial = structuredClone(run.state);
  const entries: JournalEntry[] = [];
  const statesAfter: AgentState[] = [];
  let committed = run.state.nodes.length;
  let previous = initial;
  for (let step = 0; step < 100; step++) {
    const before = run.state.nextStep;
    const next = await run.step();
    const time = new Date(Date.UTC(2026, 0, 1, 0, 0, step)).toISOString();
    if (before.module === 'actor') {
      const callId = `${before.args.nodeId}:0`;
      entries.push({ type: 'call-start', callId, attempt: 1, time });
      statesAfter.push(previous);
      entries.push({ type: 'call-end', callId, ok: true, time });
      statesAfter.push(previous);
    }
    entries.push(commitEntry(run.state, committed, new Date(time)));
    committed = run.state.nodes.length;
    previous = storedForm(run.state);
    statesAfter.push(previous);
    if (next.module === 'done') break;
  }
  return { runId: run.id, initial, entries, statesAfter, final: structuredClone(run.state) };
}

/** A state as a store returns it: the in-memory one with the stored `nextStep` (no rendered prompt). */
export function storedForm(state: AgentState): AgentState {
  return { ...structuredClone(state), nextStep: commitEntry(state, 0).nextStep };
}

/** A hand-made state: the task and `count` text nodes, each under the previous one. */
export function textState(task: string, count: number, runId?: string): AgentState {
  const state = createInitialState({ task });
  if (runId !== undefined) state.runId = runId;
  for (let index = 0; index < count; index++) {
    appendNode(
      state,
      { type: 'text', role: 'assistant', text: `${task} ${index}` },
      {
        module: 'generator',
      },
    );
  }
  return state;
}

/** The journal lines of a run folder. */
export async function journalLines(dir: string, runId: string): Promise<string[]> {
  const text = await fs.readFile(path.join(dir, runId, 'journal.jsonl'), 'utf8');
  return text.split('\n').slice(0, -1);
}
