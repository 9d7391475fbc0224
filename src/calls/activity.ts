import type { Call } from '../protocol/call';
import type { Message } from '../protocol/message';
import type { ToolSchema } from '../protocol/tool-schema';

/**
 * What an Activity receives besides its params (R-CALL-3). `context` is deliberately narrow: the
 * imported messages when the Tool sets `_imports` (or runs in module scope), else the parent context.
 */
export interface ActivityContext {
  /** The Tool schema the Call uses (as the executor knows it). */
  tool: ToolSchema;
  /** The messages this Activity may see: imported messages, or the parent context for inline Tools without `_imports`. */
  context: readonly Message[];
  /** Aborted when the Call is cancelled (batch failure, `any`/`race` winner, caller's signal); stop work early. */
  signal: AbortSignal;
  /** The instance the Call works on (R-INST-1), if any. */
  instance?: string;
  /** The Call as the LLM (or code) wrote it, references unresolved. */
  call: Call;
  /**
   * The Call's id, unique in its run and the same when a resumed run executes it again: use it as
   * an idempotency key for side effects (`<vessel node id>:<index>` in the agent loop).
   */
  callId: string;
  /** The run the Call belongs to (absent for a Call made outside any run, e.g. `executor.call`). */
  runId?: string;
  /**
   * 1 for the first execution; more when a crash interrupted an earlier execution after it started
   * and before its result was recorded (at-least-once: check `callId` before repeating a side effect).
   */
  attempt: number;
}

/**
 * A deterministic implementation of a Tool (explicit method). Gets the Call's params with `†`
 * references already resolved; its return value becomes the Call's output. Throwing fails only this Call.
 */
export type ActivityFunction = (
  params: Record<string, unknown>,
  context: ActivityContext,
) => unknown | Promise<unknown>;

/** A plain map of Activities by name, e.g. `{ fetchWeather: async ({ city }) => … }`. */
export type ActivityMap = Record<string, ActivityFunction>;

/**
 * Converts or validates the params of an explicit Call before its Activity runs (e.g. class-validator
 * DTOs from the decorator layer); throws a typed error on failure.
 */
export type ParamsTransformer = (
  params: Record<string, unknown>,
) => Promise<Record<string, unknown>> | Record<string, unknown>;
