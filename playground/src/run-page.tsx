import { useCallback, useEffect, useRef, useState } from 'react';
import { api, streamRunEvents, type Decision } from './api';
import type { Interruption, RunDetail } from './api-types';
import { ApprovalPanel } from './approval-panel';
import { NodeDetail } from './node-detail';
import {
  applyRequestMessages,
  applyRunEvent,
  emptyRunTree,
  pendingApprovals,
  rootStatus,
  type RunTree,
} from './run-tree';
import { RunTreeView } from './run-tree-view';
import { WaterfallView } from './waterfall-view';

/** How often, and how many times, to reopen the stream while a resumed run has not started yet. */
const RECONNECT_DELAY_MS = 250;
const MAX_RECONNECTS = 40;

/**
 * `#/runs/:id`: the run as a live tree from its server-sent events, the selected node's details,
 * the waterfall, and the approval buttons while it waits at `awaiting_approval`.
 */
export function RunPage(props: { runId: string }) {
  const { runId } = props;
  const [tree, setTree] = useState<RunTree>(emptyRunTree);
  const [detail, setDetail] = useState<RunDetail | undefined>();
  const [generation, setGeneration] = useState(0);
  const [connection, setConnection] = useState<'live' | 'ended' | 'lost'>('live');
  const [selected, setSelected] = useState<string | undefined>();
  const [now, setNow] = useState(() => Date.now());
  /** Root `run-start`s seen in the current stream, and how many the resumed run must exceed. */
  const rootStarts = useRef(0);
  const resumeAfter = useRef<number | undefined>(undefined);
  const reconnects = useRef(0);

  const refreshDetail = useCallback(() => {
    api.run(runId).then(setDetail, () => undefined);
  }, [runId]);

  useEffect(() => {
    setTree(emptyRunTree());
    setConnection('live');
    rootStarts.current = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reconnect = (): void => {
      reconnects.current += 1;
      if (reconnects.current > MAX_RECONNECTS) return;
      timer = setTimeout(() => setGeneration((value) => value + 1), RECONNECT_DELAY_MS);
    };
    const close = streamRunEvents(runId, {
      onEvent: (event) => {
        if (event.type === 'run-start' && event.path.length === 1) rootStarts.current += 1;
        setTree((current) => applyRunEvent(current, event));
      },
      onMessages: (requestId, messages) =>
        setTree((current) => applyRequestMessages(current, requestId, messages)),
      onEnd: () => {
        setConnection('ended');
        refreshDetail();
        // After a decision the replay may end at the old `run-end` before the resumed run starts.
        if (resumeAfter.current !== undefined && rootStarts.current <= resumeAfter.current) {
          reconnect();
        } else {
          resumeAfter.current = undefined;
          reconnects.current = 0;
        }
      },
      onError: () => {
        setConnection('lost');
        refreshDetail();
        reconnect();
      },
    });
    return () => {
      close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [runId, generation, refreshDetail]);

  useEffect(() => refreshDetail(), [refreshDetail]);

  const status = tree.roots.length > 0 ? rootStatus(tree) : (detail?.run.status ?? 'waiting');
  const running = status === 'running' || status === 'waiting';

  useEffect(() => {
    if (!running) return;
    const interval = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(interval);
  }, [running]);

  const pending = approvalsOf(tree, status, detail);
  const decide = async (decisions: Record<string, Decision>): Promise<void> => {
    await api.decide(runId, decisions);
    resumeAfter.current = rootStarts.current;
    reconnects.current = 0;
    setGeneration((value) => value + 1);
  };

  const selectedNode = selected === undefined ? undefined : tree.nodes[selected];
  const root = tree.roots.length > 0 ? tree.nodes[tree.roots[0]] : undefined;
  const usage = root?.kind === 'run' ? root.usage : undefined;

  return (
    <section className="run-page">
      <header className="run-header">
        <h1>
          Run <span className="mono">{runId}</span>
        </h1>
        {detail?.run.tool !== undefined && <span className="tool-name">{detail.run.tool}</span>}
        <span className={`status big ${status}`} data-testid="run-status">
          {status}
        </span>
        {usage !== undefined && (
          <span className="usage">
            {usage.inputTokens} input · {usage.outputTokens} output tokens
            {(usage.cachedTokens ?? 0) > 0 && ` · ${usage.cachedTokens} cached`}
          </span>
        )}
        <span className={`connection ${connection}`}>
          {connection === 'live'
            ? 'live'
            : connection === 'ended'
              ? 'stream ended'
              : 'reconnecting'}
        </span>
      </header>
      {status === 'awaiting_approval' && pending.length > 0 && (
        <ApprovalPanel
          key={pending.map((call) => call.callId).join()}
          pending={pending}
          onDecide={decide}
        />
      )}
      <div className="run-columns">
        <div className="run-tree-column">
          <h2>Tree</h2>
          <RunTreeView tree={tree} selected={selected} onSelect={setSelected} />
        </div>
        <div className="run-detail-column">
          {selectedNode === undefined ? (
            <p className="empty">Click a run, request or Call to see its details.</p>
          ) : (
            <NodeDetail
              node={selectedNode}
              messages={
                selectedNode.kind === 'request'
                  ? (tree.messages[selectedNode.requestId] ??
                    detail?.requests[selectedNode.requestId]?.messages)
                  : undefined
              }
            />
          )}
        </div>
      </div>
      <h2>Timeline</h2>
      <WaterfallView
        tree={tree}
        now={running ? now : (tree.lastTime ?? now)}
        onSelect={setSelected}
      />
    </section>
  );
}

/** The pending Calls from the events, with the reasoning the stored interruptions add. */
function approvalsOf(tree: RunTree, status: string, detail: RunDetail | undefined): Interruption[] {
  if (status !== 'awaiting_approval') return [];
  const fromEvents = pendingApprovals(tree);
  const stored = detail?.interruptions ?? [];
  if (fromEvents.length === 0) return stored;
  return fromEvents.map((call) => ({
    ...call,
    reasoning: stored.find((entry) => entry.callId === call.callId)?.reasoning ?? call.reasoning,
  }));
}
