import { useState } from 'react';
import type { Decision } from './api';
import type { Interruption } from './api-types';
import { JsonView } from './json-view';

/**
 * Approve / Reject / Edit for a run stopped at `awaiting_approval`: one card per pending Call; the
 * decisions are sent together once every pending Call has one (the run resumes with all of them).
 */
export function ApprovalPanel(props: {
  pending: Interruption[];
  onDecide: (decisions: Record<string, Decision>) => Promise<void>;
}) {
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  const decide = (callId: string, decision: Decision): void => {
    const next = { ...decisions, [callId]: decision };
    setDecisions(next);
    if (props.pending.every((call) => next[call.callId] !== undefined)) {
      setSending(true);
      setError(undefined);
      props.onDecide(next).then(
        () => setSending(false),
        (failure: Error) => {
          setSending(false);
          setDecisions({});
          setError(failure.message);
        },
      );
    }
  };

  return (
    <section className="approvals">
      <h2>Waiting for approval</h2>
      {props.pending.map((call) => (
        <ApprovalCard
          key={call.callId}
          call={call}
          decision={decisions[call.callId]}
          disabled={sending}
          onDecide={(decision) => decide(call.callId, decision)}
        />
      ))}
      {error !== undefined && <p className="error">{error}</p>}
    </section>
  );
}

function ApprovalCard(props: {
  call: Interruption;
  decision?: Decision;
  disabled: boolean;
  onDecide: (decision: Decision) => void;
}) {
  const { call } = props;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(call.params, null, 2));
  const [reason, setReason] = useState('');
  const [parseError, setParseError] = useState<string | undefined>();
  const decided = props.decision !== undefined;

  const submitEdit = (): void => {
    try {
      const params = JSON.parse(text) as unknown;
      if (params === null || typeof params !== 'object' || Array.isArray(params)) {
        setParseError('The params must be a JSON object.');
        return;
      }
      setParseError(undefined);
      props.onDecide({ edit: params as Record<string, unknown> });
    } catch (error) {
      setParseError(`Not JSON: ${(error as Error).message}`);
    }
  };

  return (
    <div className="approval" data-testid="approval" data-call-id={call.callId}>
      <div className="approval-head">
        <strong>{call.tool}</strong> <span className="mono muted">{call.callId}</span>
        {decided && <span className="badge">{describe(props.decision)}</span>}
      </div>
      {call.reasoning !== undefined && <p className="reasoning">{call.reasoning}</p>}
      <JsonView value={call.params} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          data-testid="approve-button"
          disabled={props.disabled || decided}
          onClick={() => props.onDecide({ approve: true })}
        >
          Approve
        </button>
        <input
          type="text"
          placeholder="reason (optional)"
          data-testid="reject-reason"
          value={reason}
          disabled={props.disabled || decided}
          onChange={(event) => setReason(event.target.value)}
        />
        <button
          type="button"
          className="danger"
          data-testid="reject-button"
          disabled={props.disabled || decided}
          onClick={() => props.onDecide({ reject: reason.trim() || 'Rejected in the playground.' })}
        >
          Reject
        </button>
        <button
          type="button"
          data-testid="edit-button"
          disabled={props.disabled || decided}
          onClick={() => setEditing(!editing)}
        >
          Edit
        </button>
      </div>
      {editing && !decided && (
        <div className="edit">
          <textarea
            data-testid="edit-params"
            rows={Math.min(16, text.split('\n').length + 1)}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <button type="button" data-testid="edit-submit" onClick={submitEdit}>
            Run with these params
          </button>
          {parseError !== undefined && <p className="error">{parseError}</p>}
        </div>
      )}
    </div>
  );
}

function describe(decision: Decision | undefined): string {
  if (decision === undefined) return '';
  if ('approve' in decision) return 'approved';
  if ('reject' in decision) return 'rejected';
  return 'edited';
}
