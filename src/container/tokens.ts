import { Token } from 'typedi';
import type { Provider } from '../llm/provider';
import type { ToolSchema } from '../protocol/tool-schema';
import type { ActivityFunction, ParamsTransformer } from '../calls/activity';
import type { ModuleRunner } from '../calls/module-runner';
import type { Toolset } from '../calls/toolset';
import type { StepModule } from '../agent/step-module';
import type { IdeactConfig } from './ideact-config';

/** The LLM backend of this container. Replace it with `container.set(PROVIDER, provider)` before first use. */
export const PROVIDER = new Token<Provider>('ideact.provider');
/** The configuration the container was created from (read-only). */
export const IDEACT_CONFIG = new Token<IdeactConfig>('ideact.config');
/** The Tool schemas as declared (decorated classes already turned into schemas). */
export const TOOLS = new Token<ToolSchema[]>('ideact.tools');
/** The Toolsets among the configured tools (e.g. MCP servers'), read again before each request and Call. */
export const TOOLSETS = new Token<Toolset[]>('ideact.toolsets');
/** Every registered Activity by name (service methods and plain functions). */
export const ACTIVITIES = new Token<Record<string, ActivityFunction>>('ideact.activities');
/** Params transformers of class-declared tools, by tool name (class-validator checks). */
export const PARAMS_TRANSFORMERS = new Token<Record<string, ParamsTransformer>>(
  'ideact.params-transformers',
);
/**
 * Optional: the ModuleRunner the container's Executor uses for module sub-requests (e.g. the agent's
 * nested-agent runner). Unset = the executor's default (one `request()` per module Call).
 */
export const MODULE_RUNNER = new Token<ModuleRunner>('ideact.module-runner');
/** The loop's Prompter (builds the messages); unset here, the agent registers its default. */
export const PROMPTER = new Token<StepModule>('ideact.prompter');
/** The loop's Generator (calls the LLM); unset here, the agent registers its default. */
export const GENERATOR = new Token<StepModule>('ideact.generator');
/** The loop's Discriminator (picks one option); unset here, the agent registers its default. */
export const DISCRIMINATOR = new Token<StepModule>('ideact.discriminator');
/** The loop's Actor (executes the Calls); unset here, the agent registers its default. */
export const ACTOR = new Token<StepModule>('ideact.actor');
