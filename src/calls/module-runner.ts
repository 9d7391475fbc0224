import { NestedAgentRequiredError } from '../errors/nested-agent-required.error';
import type { Provider } from '../llm/provider';
import type { CallSettings } from './call-settings';
import type { RunContext } from '../runs/run-context';
import type { Call } from '../protocol/call';
import type { JSONSchema } from '../protocol/json-schema';
import type { Message } from '../protocol/message';
import { vesselTools } from '../protocol/vessel-idea';
import type { MessageHandler } from '../requests/message-handler';
import type { LoadedModule } from './module-loader';
import { runRequest } from '../requests/run-request';

/**
 * Everything needed to run one module Call as a sub-request: the clean-room context, the schema to
 * generate, and where in the module hierarchy it runs (for nested agents, R-MOD-5).
 */
export interface ModuleRunInput {
  /** The module (for `'anonymous'`: id/reference `anonymous`, an Idea with empty context and the Tool's `_output`). */
  module: LoadedModule;
  /** The clean room: module context + imported parent messages + the `input` message (R-MOD-1). */
  context: Message[];
  /** The schema the sub-request must satisfy (the module's schema; anonymous: the Tool's `_output`). */
  schema: JSONSchema;
  /** The Call being executed, as written (references unresolved). */
  call: Call;
  /** The depth the module runs at: 1 for a module called by the top-level agent. */
  depth: number;
  /** Module ids from the root to this module, this one last (cycle detection). */
  chain: string[];
  /** Aborted when the Call is cancelled. */
  signal?: AbortSignal;
  /**
   * The module Call's place in the run: pass it to `runRequest({ run })` (or a nested run) so the
   * sub-request's events and usage reach the run.
   */
  run?: RunContext;
  /** A runner that runs a nested agent hands its final state here (R-MOD-5). */
  onNestedRun?: (state: unknown) => void;
  /**
   * The run's model settings (the agent's `model`, `temperature`): the sub-request or nested agent
   * uses them unless the module's Idea sets its own (`idea.settings`, see {@link moduleSettings}).
   */
  settings?: CallSettings;
}

/** The settings a module's model requests use: the module Idea's own, else the run's, per field. */
export function moduleSettings(input: Pick<ModuleRunInput, 'module' | 'settings'>): CallSettings {
  const own = input.module.idea.settings;
  const settings: CallSettings = { ...input.settings };
  if (own?.model !== undefined) settings.model = own.model;
  if (own?.temperature !== undefined) settings.temperature = own.temperature;
  return settings;
}

/**
 * Runs a module's sub-request and returns its output (the Call's output). The default runs one
 * Request; the agent loop supplies a runner that runs a nested Agent when the schema is a Vessel.
 */
export interface ModuleRunner {
  run(input: ModuleRunInput): Promise<unknown>;
}

/** Options of the default {@link RequestModuleRunner}: what `request()` needs besides the request. */
export interface RequestModuleRunnerOptions {
  /** The LLM backend. */
  provider: Provider;
  /** Message handlers for the sub-request pipeline (R-REQ-2); default handlers when absent. */
  handlers?: MessageHandler[];
  /** Repair attempts on invalid solutions (R-REQ-3). */
  maxRepairs?: number;
}

/**
 * The default ModuleRunner: one `request()` with the clean room and the module schema. An agent Idea
 * (a Vessel schema, R-MOD-5) needs a nested agent to execute its Calls, so it fails with
 * `NestedAgentRequiredError` here instead of returning unexecuted Calls.
 */
export class RequestModuleRunner implements ModuleRunner {
  constructor(private readonly options: RequestModuleRunnerOptions) {}

  /** Runs one Request (validated against `input.schema`); its events and usage go to `input.run`. */
  async run(input: ModuleRunInput): Promise<unknown> {
    if (vesselTools(input.schema) !== undefined) {
      throw new NestedAgentRequiredError({
        toolName: input.call._tool,
        module: input.module.reference,
      });
    }
    const result = await runRequest(
      {
        context: input.context,
        schema: input.schema,
        schemaName: schemaNameOf(input),
      },
      {
        provider: this.options.provider,
        handlers: this.options.handlers,
        maxRepairs: this.options.maxRepairs,
        signal: input.signal,
        run: input.run,
        ...moduleSettings(input),
      },
    );
    return result.solution;
  }
}

/** A short, OpenAI-safe schema name: the Idea's name, else the tool name. */
function schemaNameOf(input: ModuleRunInput): string {
  const raw = input.module.idea.name ?? input.call._tool;
  const safe = raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return safe === '' ? 'solution' : safe;
}
