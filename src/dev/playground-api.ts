import type { JSONSchema } from '../protocol/json-schema';
import type { ChatMessage } from '../protocol/message';
import type { ToolImports } from '../protocol/tool-info';

/**
 * The JSON shapes of the playground's HTTP API (`ideact dev`, see docs/playground.md): what the
 * browser app reads. Kept apart from the server so the contract is one short file.
 */

/** A Tool or Idea as the Tools page lists it. */
export interface PlaygroundToolSummary {
  name: string;
  description?: string;
  /** `explicit`: an Activity runs it; `latent`: the model produces its output (inline or as a module). */
  kind: 'explicit' | 'latent';
  /** The module Idea path (relative to the module root) when the Tool runs as a module. */
  module?: string;
  /** What the Tool's `_imports` / `_scopes` declares (fixed kinds, or kinds the model may choose). */
  imports?: Omit<Exclude<ToolImports, { mode: 'none' }>, 'field'>;
  /** A Tool of the container (`--config`), or an Idea file of the ideas folder. */
  source: 'container' | 'idea';
  /** For Ideas: the file, relative to the ideas folder. */
  file?: string;
  /** True for an Idea whose Vessel offers tools: it runs as an agent, not as one Call. */
  agent: boolean;
}

/** `GET /api/tools/:name`: the summary plus the schemas the form is built from. */
export interface PlaygroundToolDetail {
  tool: PlaygroundToolSummary;
  /** The schema the runtime validates the params with (with `$defs` when it has references). */
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
}

/** A run as the history lists it. */
export interface PlaygroundRunSummary {
  runId: string;
  /** The Tool or Idea the playground started it with (absent for runs started elsewhere). */
  tool?: string;
  /** The store's status: running, awaiting_approval, planned, completed, stopped, failed, cancelled. */
  status: string;
  /** ISO time the run was created. */
  startedAt: string;
  /** Time spent in the run's steps (over all resumes). */
  durationMs?: number;
  tokens?: { input: number; output: number; total: number };
}

/** A message exactly as the provider received it (data messages rendered as in the protocol). */
export type RenderedMessage = ChatMessage;

/** A Call a run awaiting approval stopped for. */
export interface PlaygroundInterruption {
  callId: string;
  tool: string;
  params: Record<string, unknown>;
  reasoning?: string;
}

/** The provider line of `GET /api/info` and of the console. */
export interface PlaygroundProviderInfo {
  name: string;
  /** True for the offline provider (placeholder answers, not a model). */
  offline: boolean;
  model?: string;
  note?: string;
}
