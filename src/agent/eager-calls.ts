import { JSONParser } from '@streamparser/json';
import { isPlainObject } from '../internal/is-plain-object';
import type { Call } from '../protocol/call';
import { findJsonDepthViolation, MAX_JSON_DEPTH } from '../protocol/json-depth';
import type { JsonValidator } from '../protocol/json-validation';
import type { Message } from '../protocol/message';
import { isReferenceExpression } from '../protocol/path-expression';
import type { AgentRuntime } from './agent-runtime';
import { executeVesselCall } from './execute-vessel-call';
import type { StartedCalls } from './started-calls';
import { contextView } from '../runs/state-tree';

/**
 * Starts a Vessel's Calls while the model is still writing it (issue 16): the text deltas go through
 * a streaming JSON parser, and each Call whose object is complete starts at once when it validates on
 * its own against the Vessel schema and holds no `†` reference (a later Call may write what it reads),
 * when the run has no `confirm` hook; the others wait for the Actor. A Call that needs approval goes
 * through the call pipeline like any other, which holds it for a person. @internal
 */
export class EagerCallStarter {
  /** Made at the second delta: a reply in one delta starts nothing early, so it is never parsed. */
  private parser?: JSONParser;
  /** The first delta, kept until a second one shows the model writes in pieces. */
  private pending = '';
  /** The Calls' context, taken at the first Call that starts early. */
  private context?: readonly Message[];
  /** The head while the model writes: the Calls' context ends there. */
  private readonly head: number | null;
  private readonly nodeId: number;
  private broken = false;
  /** Calls completed in the latest delta: they start once more text shows the model still writes. */
  private waiting: Array<{ call: Call; index: number }> = [];

  constructor(
    private readonly agent: AgentRuntime,
    private readonly validate: JsonValidator,
    private readonly started: StartedCalls,
  ) {
    // The Vessel becomes the next node (one option), so its Calls' ids are known in advance.
    this.nodeId = agent.state.nodes.length;
    this.head = agent.state.head;
  }

  /** The streaming parser, made on first use (issue 28: most turns of a scripted run need none). */
  private parserFor(): JSONParser {
    if (this.parser !== undefined) return this.parser;
    const parser = new JSONParser({ paths: ['$.calls.*'], keepStack: false });
    parser.onValue = ({ value, key }) => {
      if (typeof key === 'number' && isPlainObject(value)) {
        this.waiting.push({ call: value as Call, index: key });
      }
    };
    parser.onError = () => {
      // Not JSON (yet): the request pipeline repairs it; nothing more starts early.
      this.broken = true;
    };
    this.parser = parser;
    return parser;
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
    if (this.parser === undefined && this.pending === '') {
      // Nothing completed by this delta could start before the next one: parse it then.
      this.pending = delta;
      return;
    }
    if (this.pending !== '') {
      const first = this.pending;
      this.pending = '';
      this.feed(first);
      if (this.broken) return;
    }
    const ready = this.waiting;
    this.waiting = [];
    for (const { call, index: position } of ready) this.offer(call, position);
    this.feed(delta);
  }

  private feed(text: string): void {
    try {
      this.parserFor().write(text);
    } catch {
      this.broken = true;
    }
  }

  private offer(call: Call, index: number): void {
    if (typeof call._tool !== 'string') return;
    // Too deep (a Call sits two levels down in its Vessel): the whole solution goes back for repair
    // (R-REQ-3) before anything validates or walks it.
    if (findJsonDepthViolation(call, MAX_JSON_DEPTH - 2) !== undefined) return;
    if (this.validate({ calls: [call], output: null }).length > 0) return;
    // A reference may read what a later Call of this solution writes (R-FLOW-1): such a Call waits
    // for the whole solution, and the Actor's dataflow schedule starts it when its inputs exist.
    if (holdsReference(call)) return;
    const callId = `${this.nodeId}:${index}`;
    // The path up to the Vessel's parent (the head while the model writes), as it is now.
    this.context ??= contextView(this.agent.state, this.head).slice();
    const context = this.context;
    const outcome = this.started.limiter.run(() =>
      executeVesselCall(this.agent, call, context, callId, true),
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
