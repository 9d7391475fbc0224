import { JSONParser } from '@streamparser/json';
import { isPlainObject } from '../../internal/is-plain-object';
import type { Call } from '../../protocol/call';
import type { JsonValidator } from '../../protocol/json-validation';
import type { Message } from '../../protocol/message';
import { isReferenceExpression } from '../../protocol/path-expression';
import type { AgentRuntime } from './agent-runtime';
import { executeVesselCall } from './execute-vessel-call';
import type { StartedCalls } from './started-calls';
import type { ToolSchema } from '../../protocol/tool-schema';
import { approvalRule, type NeedsApproval } from './approvals';
import { contextView } from './state-tree';

/**
 * Starts a Vessel's Calls while the model is still writing it (issue 16): the text deltas go through
 * a streaming JSON parser, and each Call whose object is complete starts at once when it validates on
 * its own against the Vessel schema, needs no approval (no `confirm` hook) and holds no `†` reference
 * (a later Call may write what it reads). The others wait for the Actor. @internal
 */
export class EagerCallStarter {
  private readonly parser = new JSONParser({ paths: ['$.calls.*'], keepStack: false });
  private readonly context: readonly Message[];
  private readonly nodeId: number;
  private broken = false;
  private readonly needsApproval?: NeedsApproval;
  /** Calls completed in the latest delta: they start once more text shows the model still writes. */
  private waiting: Array<{ call: Call; index: number }> = [];

  constructor(
    private readonly agent: AgentRuntime,
    private readonly validate: JsonValidator,
    private readonly started: StartedCalls,
    tools: readonly ToolSchema[] = [],
  ) {
    this.needsApproval = approvalRule(tools, agent.settings.needsApproval);
    // The Vessel becomes the next node (one option), so its Calls' ids are known in advance.
    this.nodeId = agent.state.nodes.length;
    // The Calls' context is the path up to the Vessel's parent: the head while the model writes.
    this.context = contextView(agent.state, agent.state.head).slice();
    this.parser.onValue = ({ value, key }) => {
      if (typeof key === 'number' && isPlainObject(value)) {
        this.waiting.push({ call: value as Call, index: key });
      }
    };
    this.parser.onError = () => {
      // Not JSON (yet): the request pipeline repairs it; nothing more starts early.
      this.broken = true;
    };
  }

  /** True when the run may start Calls early at all: eager calls on, one option, no approvals. */
  static applies(agent: AgentRuntime): boolean {
    const settings = agent.settings;
    return (
      settings.eagerCalls !== false &&
      settings.planMode !== 'lazy' &&
      settings.n === 1 &&
      settings.confirm === undefined
    );
  }

  /**
   * Feeds the next text delta of option 0. A Call completed by one delta starts when the next one
   * arrives: the model is still writing, so the Call would otherwise wait. Calls completed by the
   * last delta are left to the Actor, after the whole solution validated (a provider that does not
   * stream, one delta, behaves exactly as without eager calls).
   */
  write(delta: string, index: number): void {
    if (this.broken || index !== 0 || delta === '') return;
    const ready = this.waiting;
    this.waiting = [];
    for (const { call, index: position } of ready) this.offer(call, position);
    try {
      this.parser.write(delta);
    } catch {
      this.broken = true;
    }
  }

  private offer(call: Call, index: number): void {
    if (typeof call._tool !== 'string') return;
    if (this.validate({ calls: [call], output: null }).length > 0) return;
    if (this.needsApproval?.(call) === true) return;
    // A reference may read what a later Call of this solution writes (R-FLOW-1): such a Call waits
    // for the whole solution, and the Actor's dataflow schedule starts it when its inputs exist.
    if (holdsReference(call)) return;
    const callId = `${this.nodeId}:${index}`;
    const outcome = this.started.limiter.run(() =>
      executeVesselCall(this.agent, call, this.context, callId, true),
    );
    this.started.add({ index, call, callId, outcome });
  }
}

function holdsReference(value: unknown): boolean {
  if (isReferenceExpression(value)) return true;
  if (Array.isArray(value)) return value.some(holdsReference);
  if (isPlainObject(value)) return Object.values(value).some(holdsReference);
  return false;
}
