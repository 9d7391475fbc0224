import type { Usage } from '../../llm/provider';
import type { CallError } from '../../protocol/call';
import type { RunEvent } from '../../runs/run-event';
import { moduleLabel, seconds, tokenCount } from './progress-format';

/** A run in the progress tree: the root run, or a nested agent's run under its module Call. */
interface RunNode {
  kind: 'run';
  runId: string;
  chain: string[];
  resumed: boolean;
  started: number;
  ended?: number;
  stopReason?: string;
  error?: CallError;
  turns: number;
  tokens: number;
  children: ProgressNode[];
}

/** A model request (a turn, a repair, a module's sub-request). */
interface RequestNode {
  kind: 'request';
  requestId: string;
  model?: string;
  provider?: string;
  schemaName?: string;
  attempt: number;
  characters: number;
  started: number;
  ended?: number;
  usage?: Usage;
  error?: CallError;
}

/** A Call; its sub-request or nested run are its children. */
interface CallNode {
  kind: 'call';
  callId: string;
  tool: string;
  eager: boolean;
  started: number;
  ended?: number;
  error?: CallError;
  children: ProgressNode[];
}

type ProgressNode = RunNode | RequestNode | CallNode;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * The runs, model requests and Calls of one `ideact run` as a tree, built from its RunEvents (`path`
 * says where each event belongs) and rendered as text lines for the live view on a terminal.
 */
export class ProgressTree {
  private readonly roots: ProgressNode[] = [];
  /** Runs by their path, Calls by their run's path plus their id (as the path of their children). */
  private readonly containers = new Map<string, RunNode | CallNode>();
  private readonly requests = new Map<string, RequestNode>();

  /** Adds one event to the tree (events it does not show, like `solution-delta` without a request, are ignored). */
  apply(event: RunEvent): void {
    const key = event.path.join('/');
    switch (event.type) {
      case 'run-start': {
        const node: RunNode = {
          kind: 'run',
          runId: event.runId,
          chain: event.chain,
          resumed: event.resumed,
          started: event.time,
          turns: 0,
          tokens: 0,
          children: [],
        };
        this.containers.set(key, node);
        this.childrenOf(event.path.slice(0, -1)).push(node);
        return;
      }
      case 'request-start': {
        const node: RequestNode = {
          kind: 'request',
          requestId: event.requestId,
          attempt: event.attempt,
          characters: 0,
          started: event.time,
          ...(event.model === undefined ? {} : { model: event.model }),
          ...(event.provider === undefined ? {} : { provider: event.provider }),
          ...(event.schemaName === undefined ? {} : { schemaName: event.schemaName }),
        };
        this.requests.set(`${key}|${event.requestId}`, node);
        this.childrenOf(event.path).push(node);
        return;
      }
      case 'solution-delta': {
        const node = this.requests.get(`${key}|${event.requestId}`);
        if (node !== undefined) node.characters += event.delta.length;
        return;
      }
      case 'request-end': {
        const node = this.requests.get(`${key}|${event.requestId}`);
        if (node === undefined) return;
        node.ended = event.time;
        node.model = event.model;
        node.usage = event.usage;
        if (event.error !== undefined) node.error = event.error;
        return;
      }
      case 'call-start': {
        const node: CallNode = {
          kind: 'call',
          callId: event.callId,
          tool: event.tool,
          eager: event.eager,
          started: event.time,
          children: [],
        };
        this.containers.set(`${key}/${event.callId}`, node);
        this.childrenOf(event.path).push(node);
        return;
      }
      case 'call-end': {
        const node = this.containers.get(`${key}/${event.callId}`);
        if (node?.kind !== 'call') return;
        node.ended = event.time;
        if (event.error !== undefined) node.error = event.error;
        return;
      }
      case 'step':
      case 'run-end': {
        const node = this.containers.get(key);
        if (node?.kind !== 'run') return;
        node.turns = event.usage.turns;
        node.tokens = tokenCount(event.usage);
        if (event.type === 'run-end') {
          node.ended = event.time;
          node.stopReason = event.stopReason;
          if (event.error !== undefined) node.error = event.error;
        }
        return;
      }
      default:
        return;
    }
  }

  /**
   * The tree as lines at time `now` (ms since the epoch), indented two spaces per level; a nested run
   * that ended shows only its own line when `collapseEnded` (the live view keeps finished sub-agents short).
   */
  lines(now: number, options: { collapseEnded?: boolean } = {}): string[] {
    const lines: string[] = [];
    const frame = SPINNER[Math.floor(now / 100) % SPINNER.length]!;
    const visit = (node: ProgressNode, depth: number): void => {
      lines.push(`${'  '.repeat(depth)}${this.describe(node, now, frame)}`);
      if (node.kind === 'request') return;
      const collapsed =
        node.kind === 'run' && node.ended !== undefined && depth > 0 && options.collapseEnded;
      if (collapsed === true) return;
      for (const child of node.children) visit(child, depth + 1);
    };
    for (const root of this.roots) visit(root, 0);
    return lines;
  }

  /** Where a new node goes: under the run or Call with that path; at the top when there is none. */
  private childrenOf(path: readonly string[]): ProgressNode[] {
    for (let length = path.length; length > 0; length -= 1) {
      const container = this.containers.get(path.slice(0, length).join('/'));
      if (container !== undefined) return container.children;
    }
    return this.roots;
  }

  private describe(node: ProgressNode, now: number, frame: string): string {
    const mark =
      node.error !== undefined ||
      (node.kind === 'run' && node.stopReason !== undefined && !ENDED_WELL.has(node.stopReason))
        ? '✗'
        : node.ended === undefined
          ? frame
          : '✓';
    const elapsed = seconds((node.ended ?? now) - node.started);
    const failure = node.error === undefined ? '' : ` · ${node.error.code}: ${node.error.message}`;
    switch (node.kind) {
      case 'run': {
        const name = node.chain.length === 0 ? '' : ` ${moduleLabel(node.chain)}`;
        const state = node.stopReason ?? 'running';
        return (
          `${mark} run${name} ${node.runId}${node.resumed ? ' (resumed)' : ''} · ${state} · ` +
          `${node.turns} turn(s) · ${node.tokens} tokens · ${elapsed}${failure}`
        );
      }
      case 'request': {
        const what = `${node.model ?? node.provider ?? 'model'}${node.schemaName === undefined ? '' : ` (${node.schemaName})`}`;
        const repair = node.attempt > 0 ? ` repair ${node.attempt}` : '';
        const progress =
          node.usage !== undefined
            ? `${tokenCount(node.usage)} tokens (${node.usage.inputTokens} in, ${node.usage.outputTokens} out)`
            : node.characters > 0
              ? `${node.characters} chars`
              : 'waiting';
        return `${mark} chat ${what}${repair} · ${progress} · ${elapsed}${failure}`;
      }
      case 'call':
        return `${mark} call ${node.tool} [${node.callId}]${node.eager ? ' (eager)' : ''} · ${elapsed}${failure}`;
    }
  }
}

/** Stop reasons of a run that ended as planned (no ✗ mark). */
const ENDED_WELL = new Set(['output', 'no_calls']);
