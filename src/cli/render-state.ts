import type { Message } from '../protocol/message';
import { readOutputWrite, type OutputWrite } from '../protocol/output-write';
import type { AgentNode, AgentState, TokenUsage } from '../runs/agent-state';

/** Longest JSON/text excerpt shown per node; the state file has the rest. */
const EXCERPT = 80;

/**
 * Renders a saved agent state as readable text (`ideact inspect`): a header with the task, the stop
 * reason or next step and the usage, then the node tree — id, module, message summary (tools called,
 * results, errors), tokens — with non-chosen options as indented alternatives and nested runs
 * (R-MOD-5) below the result node that holds them. Deterministic: the same state gives the same text.
 */
export function renderState(state: AgentState, title = 'state'): string {
  const lines: string[] = [];
  renderRun(state, title, '', lines);
  return `${lines.join('\n')}\n`;
}

function renderRun(state: AgentState, title: string, indent: string, lines: string[]): void {
  const chain = state.chain.length > 0 ? ` (module chain: ${state.chain.join(' → ')})` : '';
  lines.push(`${indent}${title}${chain}`);
  if (state.task !== undefined) lines.push(`${indent}task: ${excerpt(state.task)}`);
  lines.push(`${indent}${describeStep(state)}`);
  lines.push(`${indent}usage: ${describeUsage(state)}`);
  const roots = state.nodes.filter((node) => node.parent === null);
  if (roots.length === 0) {
    lines.push(`${indent}(no nodes)`);
    return;
  }
  lines.push(`${indent}nodes:`);
  for (const root of roots) renderChain(state, root.id, `${indent}  `, lines);
}

function describeStep(state: AgentState): string {
  const step = state.nextStep;
  if (step.module !== 'done') return `next step: ${step.module} (resumable)`;
  const parts = [`stopped: ${step.args.reason}`];
  if (step.args.pending !== undefined)
    parts.push(`pending: ${step.args.pending.module} (resumable)`);
  if (step.args.error !== undefined)
    parts.push(`error: ${step.args.error.code}: ${step.args.error.message}`);
  if (step.args.output !== undefined)
    parts.push(`output: ${excerpt(JSON.stringify(step.args.output))}`);
  return parts.join('; ');
}

function describeUsage(state: AgentState): string {
  const usage = state.usage;
  const limits = Object.entries(state.limits)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`);
  return (
    `${usage.turns} turns, ${usage.steps} steps, ${tokens(usage)}, ${(usage.elapsedMs / 1000).toFixed(1)} s` +
    (limits.length > 0 ? ` (limits: ${limits.join(', ')})` : '')
  );
}

/** Prints a chain of nodes flat; where a node has several children, the others are alternatives. */
function renderChain(state: AgentState, startId: number, indent: string, lines: string[]): void {
  let id: number | undefined = startId;
  while (id !== undefined) {
    const node: AgentNode | undefined = state.nodes[id];
    if (node === undefined) return;
    lines.push(`${indent}${describeNode(node, state.head)}`);
    for (const [index, nested] of (node.metadata.nested ?? []).entries()) {
      renderRun(nested, `nested run ${index + 1}`, `${indent}    `, lines);
    }
    const children = node.children;
    if (children.length === 0) return;
    const main = mainChild(state, children);
    for (const other of children) {
      if (other === main) continue;
      lines.push(`${indent}  ├─ alternative:`);
      renderChain(state, other, `${indent}  │  `, lines);
    }
    id = main;
  }
}

/** The child the run continued with: the chosen option, else the one leading to head, else the last. */
function mainChild(state: AgentState, children: number[]): number {
  const chosen = children.find((child) => state.nodes[child]?.metadata.chosen === true);
  if (chosen !== undefined) return chosen;
  const onPath = new Set<number>();
  for (let id = state.head; id !== null && id !== undefined; id = state.nodes[id]?.parent ?? null)
    onPath.add(id);
  return children.find((child) => onPath.has(child)) ?? children[children.length - 1]!;
}

function describeNode(node: AgentNode, head: number | null): string {
  const metadata = node.metadata;
  const parts = [`#${node.id}`, `[${metadata.module}]`, summarize(node)];
  if (metadata.chosen === false) parts.push('(not chosen)');
  if (metadata.reason !== undefined) parts.push(`(reason: ${excerpt(metadata.reason)})`);
  if (metadata.usage !== undefined) parts.push(`(${tokens(metadata.usage)})`);
  if (node.id === head) parts.push('← head');
  return parts.join(' ');
}

function summarize(node: AgentNode): string {
  const message = node.message;
  switch (message.type) {
    case 'system':
      return `system: ${excerpt(message.text)}`;
    case 'text':
      return `text (${message.role ?? 'user'}): ${excerpt(message.text)}`;
    case 'data': {
      const write = outputWrite(message);
      if (write !== undefined) return `data${instance(message._instance)}: ${describeWrite(write)}`;
      return `data${message.kind === undefined ? '' : ` ${message.kind}`}${instance(message._instance)}: ${excerpt(JSON.stringify(message.data))}`;
    }
    case 'input':
      return `input${instance(message._instance)}: ${excerpt(JSON.stringify(message.input))}`;
    case 'state': {
      const write = outputWrite(message);
      if (write !== undefined)
        return `state${instance(message._instance)}: ${describeWrite(write)}`;
      return `state${instance(message._instance)}: ${excerpt(JSON.stringify(message.state))}`;
    }
    case 'result': {
      const tool = message.call._tool;
      if (message.error !== undefined)
        return `result ${tool}: ERROR ${message.error.code}: ${excerpt(message.error.message)}`;
      return `result ${tool}: ok ${excerpt(JSON.stringify(message.output ?? null))}`;
    }
    case 'vessel': {
      const calls = message.calls.map((call) => call._tool);
      const output = message.output === null ? 'null' : excerpt(JSON.stringify(message.output));
      return `vessel: ${calls.length} call${calls.length === 1 ? '' : 's'} [${calls.join(', ')}], output: ${output}`;
    }
    default:
      return excerpt(JSON.stringify(message));
  }
}

/** The output write a data/state node records (R-OUT-5); undefined for a plain patch or bad metadata. */
function outputWrite(message: Message): OutputWrite | undefined {
  try {
    return readOutputWrite(message);
  } catch {
    return undefined;
  }
}

/** `push †state.log (call 3:0): "line"` — the method, the path, the Call, and the value written. */
function describeWrite(write: OutputWrite): string {
  const call = write.callId === undefined ? '' : ` (call ${write.callId})`;
  return `${write.method} ${write.text}${call}: ${excerpt(JSON.stringify(write.value))}`;
}

function tokens(usage: TokenUsage): string {
  return `${usage.inputTokens} in / ${usage.outputTokens} out / ${usage.cachedTokens} cached tokens`;
}

function instance(value: string | undefined): string {
  return value === undefined ? '' : ` ¶${value}`;
}

function excerpt(text: string | undefined): string {
  if (text === undefined) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT ? flat : `${flat.slice(0, EXCERPT - 1)}…`;
}
