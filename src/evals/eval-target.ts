import * as path from 'node:path';
import { readIdeaFile } from '../codegen/read-idea-file';
import { loadConfigModule } from '../container/config-module';
import { agentFromContainer, createAgent } from '../container/create-agent';
import { createContainer } from '../container/create-container';
import { PROVIDER } from '../container/tokens';
import { IdeactError } from '../errors/ideact-error';
import { InvalidEvalError } from '../errors/invalid-eval.error';
import type { Agent } from '../agent/agent';
import type { Provider } from '../llm/provider';
import { ideaContextWithInput } from '../protocol/idea-input';
import type { Idea } from '../protocol/idea';
import type { JSONSchema } from '../protocol/json-schema';
import { formatIssues } from '../protocol/json-validation';
import type { Message } from '../protocol/message';
import { vesselIdeaParts } from '../protocol/vessel-idea';
import type { EvalCase, EvalTarget } from './eval-spec';

/** What a case's run starts with. */
export interface CaseStart {
  context: Message[];
  output?: JSONSchema;
  task?: string;
}

/** A target made ready: the agent, how a case starts it, and what the report says about it. */
export interface ResolvedTarget {
  agent: Agent;
  /** `idea <path>`, `config <path>` or `agent`. */
  description: string;
  /** The provider its runs use, when known (the judge's default). */
  provider?: Provider;
  /** The final output's schema (the `schema` scorer's default). */
  outputSchema?: JSONSchema;
  /** The run options of a case; a bad input is an InvalidEvalError at `jsonPath`. */
  startOf(evalCase: EvalCase, jsonPath: string): CaseStart;
  /** Releases the agent when the eval made it. */
  dispose(): Promise<void>;
}

/** How a target is made: where paths resolve, the provider and model, and the error source. */
export interface TargetSetup {
  source: string;
  baseDir: string;
  provider: () => Provider;
  model?: string;
}

/**
 * Makes the target's agent (issue 33 item 1): an Idea file run as `ideact run` runs it (its Vessel's
 * Tools; a case's `input` replaces the Idea's input, checked against its input schema), a config
 * module's container or configuration (as `ideact dev --config`), or an Agent given in code.
 */
export async function resolveTarget(
  target: EvalTarget,
  setup: TargetSetup,
): Promise<ResolvedTarget> {
  const fail = (jsonPath: string, reason: string, cause?: unknown): never => {
    throw new InvalidEvalError({ source: setup.source, jsonPath, reason, cause });
  };
  if (typeof target !== 'object' || target === null || Array.isArray(target)) {
    return fail('/target', 'the target must be { idea }, { config } or { agent }');
  }
  if ('agent' in target && target.agent !== undefined) {
    return {
      agent: target.agent,
      description: 'agent',
      ...(target.output === undefined ? {} : { outputSchema: target.output }),
      startOf: (evalCase) => agentStart(target.context ?? [], target.output, evalCase),
      dispose: async () => undefined,
    };
  }
  if ('idea' in target && typeof target.idea === 'string') {
    const file = path.resolve(setup.baseDir, target.idea);
    let idea: Idea;
    try {
      idea = await readIdeaFile(file);
    } catch (error) {
      return fail('/target/idea', `the Idea ${file} cannot be used (${messageOf(error)})`, error);
    }
    const parts = vesselIdeaParts(idea);
    const provider = setup.provider();
    const agent = createAgent({
      tools: parts?.tools ?? [],
      provider,
      moduleRoot: path.resolve(setup.baseDir, target.moduleRoot ?? path.dirname(target.idea)),
      ...(setup.model === undefined ? {} : { model: setup.model }),
    });
    const output = parts === undefined ? idea.schema : parts.output;
    return {
      agent,
      description: `idea ${shownPath(file)}`,
      provider,
      ...(output === undefined ? {} : { outputSchema: output }),
      startOf(evalCase, jsonPath) {
        let context = idea.context;
        if (evalCase.input !== undefined) {
          const given = ideaContextWithInput(idea, evalCase.input);
          if (given.issues.length > 0) {
            fail(
              `${jsonPath}/input`,
              `does not match the input schema of ${file}: ${formatIssues(given.issues).replace(/\n/g, '; ')}`,
            );
          }
          context = given.context;
        }
        const start: CaseStart = {
          context: vesselIdeaParts({ ...idea, context })?.context ?? context,
        };
        if (output !== undefined) start.output = output;
        if (evalCase.task !== undefined) start.task = evalCase.task;
        return start;
      },
      dispose: () => agent.dispose(),
    };
  }
  if ('config' in target && typeof target.config === 'string') {
    const file = path.resolve(setup.baseDir, target.config);
    const loaded = await loadConfigModule(file).catch((error: unknown) => {
      // A TypeScript config without tsx in the project: its own error says how to install it.
      if (IdeactError.isInstance(error)) throw error;
      return { kind: 'unloadable' as const, error };
    });
    let agent: Agent;
    let provider: Provider;
    if (loaded.kind === 'container') {
      agent = agentFromContainer(
        loaded.container,
        setup.model === undefined ? {} : { model: setup.model },
      );
      provider = loaded.container.get(PROVIDER);
    } else if (loaded.kind === 'config') {
      provider = loaded.config.provider ?? setup.provider();
      try {
        agent = agentFromContainer(
          createContainer({ ...loaded.config, provider }),
          setup.model === undefined ? {} : { model: setup.model },
        );
      } catch (error) {
        return fail(
          '/target/config',
          `its configuration is not valid (${messageOf(error)})`,
          error,
        );
      }
    } else if (loaded.kind === 'unloadable') {
      return fail(
        '/target/config',
        `the config module ${file} does not load (${messageOf(loaded.error)})`,
        loaded.error,
      );
    } else {
      return fail(
        '/target/config',
        `the config module ${file} exports neither a container nor a configuration with a \`tools\` array`,
      );
    }
    return {
      agent,
      description: `config ${shownPath(file)}`,
      provider,
      ...(target.output === undefined ? {} : { outputSchema: target.output }),
      startOf: (evalCase) => agentStart(target.context ?? [], target.output, evalCase),
      dispose: () => agent.dispose(),
    };
  }
  return fail(
    '/target',
    'the target must name an Idea file ({ "idea": "ideas/x.json" }), a config module ({ "config": "ideact.config.ts" }) or, in code, an Agent ({ agent })',
  );
}

/** An agent's case start: the target's context, then the case's input as an input message. */
function agentStart(
  base: Message[],
  output: JSONSchema | undefined,
  evalCase: EvalCase,
): CaseStart {
  const context: Message[] =
    evalCase.input === undefined ? [...base] : [...base, { type: 'input', input: evalCase.input }];
  const start: CaseStart = { context };
  if (output !== undefined) start.output = output;
  if (evalCase.task !== undefined) start.task = evalCase.task;
  return start;
}

/** A path as reports show it: relative to the working directory when inside it, else absolute. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative)
    ? file
    : relative;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
