import { Allow, parse as parsePartialJson } from 'partial-json';
import { isPlainObject } from '../internal/is-plain-object';
import { findJsonDepthViolation } from '../protocol/json-depth';
import type { RunContext } from '../runs/run-context';
import type { RunEvent } from '../runs/run-event';

/**
 * Partial values of what the model writes in a Vessel (issue 32, item 3): the `output` and each
 * Call's params, as `output-delta` events that grow with the text. Only collections and strings may
 * be unfinished (numbers, booleans and null appear once complete), so each value is a prefix of the
 * next one and the last equals the final value. Built only for a run someone observes (it reads
 * deltas), off the request's own `solution-delta` events: nothing is parsed for anyone else.
 */
export class OutputDeltas {
  private readonly texts = new Map<string, string>();
  private readonly parsedAt = new Map<string, unknown>();
  private readonly last = new Map<string, string>();

  private constructor(private readonly run: RunContext) {}

  /**
   * The context the Generator's request runs in: `run` itself when nobody observes it, else one
   * whose request events also produce `output-delta` events on `run`.
   */
  static contextFor(run: RunContext | undefined): RunContext | undefined {
    if (run === undefined || !run.observed || !run.listened) return run;
    const deltas = new OutputDeltas(run);
    return run.follow((event) => deltas.read(event));
  }

  private read(event: RunEvent): void {
    if (event.runId !== this.run.runId || event.path.length !== this.run.path.length) return;
    if (event.type === 'request-start') {
      this.texts.set(event.requestId, '');
      return;
    }
    if (event.type === 'solution-delta') {
      if (event.index !== 0) return;
      const text = (this.texts.get(event.requestId) ?? '') + event.delta;
      this.texts.set(event.requestId, text);
      // The request re-parses its text only now and then (past 2 KB): so does this.
      if (event.partial === undefined || this.parsedAt.get(event.requestId) === event.partial)
        return;
      this.parsedAt.set(event.requestId, event.partial);
      this.emit(event.requestId, text);
      return;
    }
    if (event.type === 'request-end') {
      const text = this.texts.get(event.requestId);
      this.texts.delete(event.requestId);
      this.parsedAt.delete(event.requestId);
      // The whole text once more: the last values are the final ones.
      if (text !== undefined && event.error === undefined) this.emit(event.requestId, text);
      for (const key of [...this.last.keys()]) {
        if (key.startsWith(`${event.requestId}\0`)) this.last.delete(key);
      }
    }
  }

  private emit(requestId: string, text: string): void {
    const vessel = parseGrowing(text);
    if (!isPlainObject(vessel)) return;
    const calls = vessel.calls;
    if (Array.isArray(calls)) {
      calls.forEach((call, callIndex) => {
        if (!isPlainObject(call)) return;
        const params = Object.fromEntries(
          Object.entries(call).filter(([key]) => !key.startsWith('_')),
        );
        const tool = typeof call._tool === 'string' ? call._tool : undefined;
        const reasoning =
          typeof call._reasoningForCall === 'string' ? call._reasoningForCall : undefined;
        this.send(requestId, `params:${callIndex}`, params, {
          part: 'params',
          callIndex,
          ...(tool === undefined ? {} : { tool }),
          ...(reasoning === undefined ? {} : { reasoning }),
        });
      });
    }
    const output = vessel.output;
    if (output !== undefined && output !== null) {
      this.send(requestId, 'output', output, { part: 'output' });
    }
  }

  private send(
    requestId: string,
    key: string,
    value: unknown,
    fields: { part: 'output' | 'params'; callIndex?: number; tool?: string; reasoning?: string },
  ): void {
    const json = JSON.stringify([value, fields.reasoning]);
    const slot = `${requestId}\0${key}`;
    if (this.last.get(slot) === json) return;
    this.last.set(slot, json);
    this.run.emit({ type: 'output-delta', requestId, ...fields, value });
  }
}

/** Leniently parsed text where only strings, arrays and objects may be unfinished. */
function parseGrowing(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    const value = parsePartialJson(text, Allow.STR | Allow.ARR | Allow.OBJ);
    return findJsonDepthViolation(value) === undefined ? value : undefined;
  } catch {
    return undefined;
  }
}
