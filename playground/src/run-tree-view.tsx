import { runStatus, type RunTree, type TreeNode } from './run-tree';

/**
 * The live tree of a run: runs, model requests (with their streaming solution text), Calls and what
 * ran inside them (module sub-requests, nested agent runs). Clicking a node shows its details.
 */
export function RunTreeView(props: {
  tree: RunTree;
  selected?: string;
  onSelect: (key: string) => void;
}) {
  return (
    <ul className="tree" data-testid="run-tree">
      {props.tree.roots.map((key) => (
        <TreeItem key={key} nodeKey={key} {...props} />
      ))}
    </ul>
  );
}

function TreeItem(props: {
  tree: RunTree;
  nodeKey: string;
  selected?: string;
  onSelect: (key: string) => void;
}) {
  const node = props.tree.nodes[props.nodeKey];
  if (node === undefined) return null;
  const selected = props.selected === node.key ? ' selected' : '';
  const children =
    node.kind === 'request' || node.children.length === 0 ? null : (
      <ul>
        {node.children.map((child) => (
          <TreeItem key={child} {...props} nodeKey={child} />
        ))}
      </ul>
    );
  return (
    <li
      className={`node ${node.kind} ${node.status}${selected}`}
      data-testid={`tree-${node.kind}`}
      data-status={node.status}
      data-key={node.key}
      {...attributesOf(node)}
    >
      <button type="button" className="node-head" onClick={() => props.onSelect(node.key)}>
        <NodeHead node={node} />
      </button>
      {node.kind === 'request' && node.reasoning !== undefined && (
        <pre className="reasoning" data-testid="reasoning-text">
          {node.reasoning.join('\n\n')}
        </pre>
      )}
      {node.kind === 'request' && node.output !== undefined && (
        <pre className="partial-output" data-testid="partial-output">
          {typeof node.output === 'string' ? node.output : JSON.stringify(node.output, null, 2)}
        </pre>
      )}
      {node.kind === 'request' && node.texts.length > 0 && (
        <pre className="solution" data-testid="solution-text">
          {node.texts.join('\n\n')}
        </pre>
      )}
      {node.kind === 'call' && node.error !== undefined && (
        <div className="call-error">
          {node.error.code}: {node.error.message}
        </div>
      )}
      {children}
    </li>
  );
}

function attributesOf(node: TreeNode): Record<string, string> {
  if (node.kind === 'call') return { 'data-call-id': node.callId, 'data-tool': node.tool };
  if (node.kind === 'request') return { 'data-request-id': node.requestId };
  return { 'data-run-id': node.runId };
}

function NodeHead(props: { node: TreeNode }) {
  const { node } = props;
  switch (node.kind) {
    case 'run':
      return (
        <>
          <span className="kind">run</span> <span className="mono">{node.runId}</span>
          {node.chain.length > 0 && <span className="muted"> {node.chain.join(' › ')}</span>}
          <span className={`status ${runStatus(node)}`}>{runStatus(node)}</span>
        </>
      );
    case 'request':
      return (
        <>
          <span className="kind">request</span> {node.schemaName ?? ''}{' '}
          <span className="mono muted">{node.requestId}</span>
          {node.attempt > 0 && <span className="badge repair">repair {node.attempt}</span>}
          {node.usage !== undefined && (
            <span className="usage" data-testid="request-usage">
              {node.usage.inputTokens} in · {node.usage.outputTokens} out
            </span>
          )}
          <span className={`status ${node.status}`}>{node.status}</span>
        </>
      );
    case 'call':
      return (
        <>
          <span className="kind">call</span> <strong>{node.tool || '…'}</strong>{' '}
          <span className="mono muted">{node.callId}</span>
          {node.eager && <span className="badge eager">eager</span>}
          <span className={`status ${node.status}`}>{node.status}</span>
        </>
      );
  }
}
