import {
  flattenRunTree,
  type CallNode,
  type NodeStatus,
  type RequestNode,
  type RunTree,
} from './run-tree';

/**
 * The run's timeline (issue 20): one bar per model request and Call, placed by the events' times, so
 * the waterfall shows what ran in parallel (eager Calls, module sub-requests) and where time went.
 */

/** One bar of the waterfall; offsets are milliseconds from the run's first event. */
export interface WaterfallBar {
  key: string;
  kind: 'request' | 'call';
  label: string;
  depth: number;
  status: NodeStatus;
  startMs: number;
  /** Up to `now` while the request or Call is still running. */
  durationMs: number;
  /** Placement in percent of the whole span (width at least 0.5 % so instant Calls stay visible). */
  leftPercent: number;
  widthPercent: number;
}

/** The whole timeline: its bars in tree order and its total length. */
export interface Waterfall {
  totalMs: number;
  bars: WaterfallBar[];
}

/** Builds the bars from the tree; `now` (ms since epoch) closes the bars of what still runs. */
export function buildWaterfall(tree: RunTree, now: number): Waterfall {
  const origin = tree.firstTime;
  if (origin === undefined) return { totalMs: 0, bars: [] };
  const rows = flattenRunTree(tree).flatMap(({ node, depth }) =>
    node.kind === 'run' ? [] : [{ node, depth }],
  );
  const anyRunning = rows.some(({ node }) => node.end === undefined);
  const last = Math.max(tree.lastTime ?? origin, anyRunning ? now : origin);
  const totalMs = Math.max(last - origin, 1);
  const bars = rows.map(({ node, depth }): WaterfallBar => {
    const startMs = node.start - origin;
    const durationMs = Math.max((node.end ?? Math.max(now, node.start)) - node.start, 0);
    const leftPercent = clamp((startMs / totalMs) * 100, 0, 100);
    const widthPercent = clamp((durationMs / totalMs) * 100, 0.5, 100 - leftPercent || 0.5);
    return {
      key: node.key,
      kind: node.kind === 'request' ? 'request' : 'call',
      label: labelOf(node),
      depth,
      status: node.status,
      startMs,
      durationMs,
      leftPercent,
      widthPercent,
    };
  });
  return { totalMs, bars };
}

function labelOf(node: RequestNode | CallNode): string {
  if (node.kind === 'request') return `${node.schemaName ?? 'request'} ${node.requestId}`;
  return `${node.tool} ${node.callId}`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/** `1.2 s`, `340 ms`: durations as the run view shows them. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}
