/**
 * Producer → Composer → Sound-Designer (seed 000): the producer Idea runs as the top-level agent;
 * its `composer` Call runs the composer Idea as a nested agent (its schema offers tools, R-MOD-5),
 * which calls the sound designer module (one Request); the producer also calls the sound designer
 * directly, in parallel with the composer.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  createAgent,
  parseIdea,
  vesselIdeaParts,
  type AgentState,
  type Message,
  type Provider,
  type StepEvent,
} from 'ideact';

/** Where the Idea files live; module paths in them resolve here. */
export const MUSIC_IDEAS = path.join(__dirname, 'ideas');

/** Options of {@link runMusic}. */
export interface RunMusicOptions {
  /** The LLM (a ScriptedProvider with `musicScript()` for an offline run). */
  provider: Provider;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** The producer's brief (default: the one in producer.json). */
  brief?: string;
  /** Where to keep the run (a state file: it names a one-run store in `<file>.run/`). */
  stateFile?: string;
}

/** Runs the producer agent; returns the record and the whole state tree (nested runs included). */
export async function runMusic(
  options: RunMusicOptions,
): Promise<{ output: unknown; state: AgentState }> {
  const file = path.join(MUSIC_IDEAS, 'producer.json');
  const idea = parseIdea(JSON.parse(readFileSync(file, 'utf8')), file);
  const parts = vesselIdeaParts(idea);
  if (parts === undefined) throw new Error(`${file} does not offer tools`);
  const log = options.log ?? (() => undefined);
  const agent = createAgent({
    tools: parts.tools,
    provider: options.provider,
    moduleRoot: MUSIC_IDEAS,
    onStep: (event: StepEvent) => progress(event, log),
  });
  const context: Message[] =
    options.brief === undefined
      ? parts.context
      : parts.context.map((message) =>
          message.type === 'input' ? { ...message, input: { brief: options.brief } } : message,
        );
  const result = await agent.run({
    context,
    output: parts.output,
    maxTurns: 6,
    stateFile: options.stateFile,
  });
  log(
    `done: ${result.stopReason} after ${result.usage.turns} producer turns, ${result.usage.inputTokens + result.usage.outputTokens} tokens`,
  );
  return { output: result.output, state: result.state };
}

const logged = new WeakMap<AgentState, Set<number>>();

function progress(event: StepEvent, log: (line: string) => void): void {
  const { state, depth, module } = event;
  const who =
    depth === 0 ? 'producer' : path.basename(state.chain[state.chain.length - 1] ?? '?', '.json');
  const indent = '  '.repeat(depth);
  if (module === 'discriminator') {
    const node = state.head === null ? undefined : state.nodes[state.head];
    if (node?.message.type !== 'vessel') return;
    const calls = node.message.calls.map((call) => call._tool);
    log(
      `${indent}${who} turn ${state.usage.turns}: ${calls.length > 0 ? `calls ${calls.join(', ')}` : 'final output'}`,
    );
  }
  if (module === 'actor') {
    const seen = logged.get(state) ?? new Set<number>();
    logged.set(state, seen);
    for (const node of state.nodes) {
      if (node.message.type !== 'result' || seen.has(node.id)) continue;
      seen.add(node.id);
      const status = node.message.error ? `failed: ${node.message.error.code}` : 'ok';
      log(`${indent}  ${who} ← ${node.message.call._tool} ${status}`);
    }
  }
}
