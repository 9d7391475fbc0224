import { ConfigurationError } from './configuration.error';
import { withPotentialSolutions } from './potential-solutions';

/**
 * A module Call reached an agent Idea (its schema is a Vessel that offers Tools, R-MOD-5) on an
 * Executor that has no nested-agent runner. Running it as one request would return a Vessel whose
 * Calls never ran, so the Call fails with this error instead.
 */
export class NestedAgentRequiredError extends ConfigurationError {
  static override readonly code = 'NESTED_AGENT_REQUIRED';

  /** The Tool whose Call ran the module. */
  readonly toolName: string;
  /** The module as written in `_module` / `_delegate` (a path relative to the module root, or a URL). */
  readonly module: string;

  constructor(options: { toolName: string; module: string; cause?: unknown }) {
    super({
      message: withPotentialSolutions(
        `Tool "${options.toolName}" runs module "${options.module}", an agent Idea: its schema offers ` +
          'tools, so it must run as a nested agent that executes its Calls (R-MOD-5). This Executor ' +
          'has no nested-agent runner, and one request would only return the Calls, unexecuted.',
        [
          'Build an agent with `createAgent({ tools, provider, moduleRoot })` and call `agent.call(Tool, params)` (or let the agent loop call it).',
          'Or use the Executor of `createContainer(config)` (`container.get(Executor)`): it runs agent modules as nested agents.',
          'Or build the Executor with `executorWithNestedAgents(options)` (the options of `new Executor`).',
        ],
      ),
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.module = options.module;
  }
}
