import type { RunEvent } from '../../runs/run-event';
import { moduleLabel, seconds, tokenCount } from './progress-format';

/**
 * Progress as plain lines, one per meaningful event, for a stderr that is not a terminal (CI logs,
 * pipes, tests): nothing is redrawn, so the log reads top to bottom. Each line is indented by the
 * event's depth in the run tree: a run's requests, steps and Calls sit under it, a module Call's
 * sub-request and nested run under the Call.
 */
export class ProgressLines {
  private readonly started: number;
  /** When each request and Call started, by its key, for the durations on the end lines. */
  private readonly starts = new Map<string, number>();

  /** `started`: when the command started (ms since the epoch), for the elapsed time of step lines. */
  constructor(started: number) {
    this.started = started;
  }

  /** The line for `event` (ending in a newline), or undefined for events that get none (deltas, prompter steps). */
  line(event: RunEvent): string | undefined {
    const key = event.path.join('/');
    const depth = event.path.length;
    switch (event.type) {
      case 'run-start': {
        const name = event.chain.length === 0 ? '' : ` ${moduleLabel(event.chain)}`;
        return format(
          depth - 1,
          `run${name} ${event.runId} ${event.resumed ? 'resumed' : 'started'}`,
        );
      }
      case 'request-start':
        this.starts.set(`${key}|${event.requestId}`, event.time);
        return undefined;
      case 'request-end': {
        const started = this.take(`${key}|${event.requestId}`, event.time);
        const usage = event.usage;
        const failure = event.error === undefined ? '' : ` · ${event.error.code}`;
        return format(
          depth,
          `chat ${event.model} · ${tokenCount(usage)} tokens (${usage.inputTokens} in, ${usage.outputTokens} out) · ` +
            `${seconds(event.time - started)}${failure}`,
        );
      }
      case 'call-start':
        this.starts.set(`${key}/${event.callId}`, event.time);
        return format(
          depth,
          `call ${event.tool} [${event.callId}] started${event.eager ? ' (eager)' : ''}`,
        );
      case 'call-end': {
        const started = this.take(`${key}/${event.callId}`, event.time);
        const outcome =
          event.error === undefined
            ? 'done'
            : `failed: ${event.error.code}: ${event.error.message.replace(/\n/g, ' ')}`;
        return format(
          depth,
          `call ${event.tool} [${event.callId}] ${outcome} · ${seconds(event.time - started)}`,
        );
      }
      case 'step':
        // The line `ideact run` printed per step before events existed (scripts may grep it).
        if (event.module === 'prompter') return undefined;
        return format(
          depth,
          `turn ${event.usage.turns} · ${event.module} · ${tokenCount(event.usage)} tokens · ${seconds(event.time - this.started)}`,
        );
      case 'run-end': {
        const failure = event.error === undefined ? '' : ` · ${event.error.code}`;
        return format(
          depth - 1,
          `run ${event.runId} ended: ${event.stopReason} · ${event.usage.turns} turn(s) · ` +
            `${tokenCount(event.usage)} tokens · ${seconds(event.usage.elapsedMs)}${failure}`,
        );
      }
      default:
        return undefined;
    }
  }

  private take(key: string, fallback: number): number {
    const started = this.starts.get(key) ?? fallback;
    this.starts.delete(key);
    return started;
  }
}

function format(depth: number, text: string): string {
  return `ideact: ${'  '.repeat(Math.max(0, depth))}${text}\n`;
}
