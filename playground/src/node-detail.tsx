import type { RenderedMessage } from './api-types';
import { JsonView } from './json-view';
import { runStatus, type TreeNode } from './run-tree';
import { formatDuration } from './waterfall';

/**
 * The details of the selected node: a request's rendered messages (exactly what the provider
 * received), its solution and usage; a Call's params, output or error; a run's task and output.
 */
export function NodeDetail(props: { node: TreeNode; messages?: RenderedMessage[] }) {
  const { node } = props;
  const duration = node.end === undefined ? 'running' : formatDuration(node.end - node.start);
  if (node.kind === 'request') {
    return (
      <div className="detail" data-testid="request-detail">
        <h2>
          Request <span className="mono">{node.requestId}</span>
        </h2>
        <dl className="facts">
          <dt>schema</dt>
          <dd>{node.schemaName ?? '—'}</dd>
          <dt>model</dt>
          <dd>{node.model ?? node.provider ?? '—'}</dd>
          <dt>attempt</dt>
          <dd>{node.attempt}</dd>
          <dt>duration</dt>
          <dd>{duration}</dd>
          <dt>usage</dt>
          <dd data-testid="detail-usage">
            {node.usage === undefined
              ? '—'
              : `${node.usage.inputTokens} input · ${node.usage.outputTokens} output · ${node.usage.cachedTokens ?? 0} cached` +
                (node.usage.reasoningTokens === undefined
                  ? ''
                  : ` · ${node.usage.reasoningTokens} reasoning`)}
          </dd>
          {node.finishReasons !== undefined && (
            <>
              <dt>finish</dt>
              <dd>{node.finishReasons.join(', ')}</dd>
            </>
          )}
        </dl>
        {node.error !== undefined && (
          <p className="error">
            {node.error.code}: {node.error.message}
          </p>
        )}
        <h3>Messages</h3>
        <ol className="messages" data-testid="request-messages">
          {(props.messages ?? []).map((message, index) => (
            <li
              key={index}
              className={`message ${message.role}`}
              data-testid="message"
              data-role={message.role}
            >
              <div className="role">{message.role}</div>
              <pre>{message.content}</pre>
            </li>
          ))}
          {props.messages === undefined && <li className="empty">No messages recorded.</li>}
        </ol>
        {node.reasoning !== undefined && (
          <>
            <h3>Reasoning</h3>
            <pre className="reasoning">{node.reasoning.join('\n\n')}</pre>
          </>
        )}
        <h3>Solution</h3>
        <pre className="solution">{node.texts.join('\n\n')}</pre>
      </div>
    );
  }
  if (node.kind === 'call') {
    return (
      <div className="detail" data-testid="call-detail">
        <h2>
          Call {node.tool} <span className="mono">{node.callId}</span>
        </h2>
        <dl className="facts">
          <dt>status</dt>
          <dd>{node.status}</dd>
          <dt>duration</dt>
          <dd>{duration}</dd>
          {node.instance !== undefined && (
            <>
              <dt>instance</dt>
              <dd>{node.instance}</dd>
            </>
          )}
        </dl>
        <h3>Params</h3>
        <JsonView value={node.params} testId="call-params" />
        {node.error !== undefined ? (
          <>
            <h3>Error</h3>
            <p className="error" data-testid="call-error">
              {node.error.code}: {node.error.message}
            </p>
          </>
        ) : (
          node.status === 'done' && (
            <>
              <h3>Output</h3>
              <JsonView value={node.output} testId="call-output" />
            </>
          )
        )}
      </div>
    );
  }
  return (
    <div className="detail" data-testid="run-detail">
      <h2>
        Run <span className="mono">{node.runId}</span>
      </h2>
      <dl className="facts">
        <dt>status</dt>
        <dd>
          {runStatus(node)}
          {node.stopReason !== undefined && node.status !== 'running' && (
            <span className="muted"> ({node.stopReason})</span>
          )}
        </dd>
        <dt>duration</dt>
        <dd>{duration}</dd>
        {node.task !== undefined && (
          <>
            <dt>task</dt>
            <dd>{node.task}</dd>
          </>
        )}
        {node.usage !== undefined && (
          <>
            <dt>tokens</dt>
            <dd>
              {node.usage.inputTokens} input · {node.usage.outputTokens} output
            </dd>
          </>
        )}
      </dl>
      {node.error !== undefined && (
        <p className="error">
          {node.error.code}: {node.error.message}
        </p>
      )}
      {node.status !== 'running' && (
        <>
          <h3>Output</h3>
          <JsonView value={node.output} testId="run-output" />
        </>
      )}
    </div>
  );
}
