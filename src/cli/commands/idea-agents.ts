import * as path from 'node:path';
import { ideaNameOf, listIdeaFiles } from '../../codegen/idea-files';
import { CliUsageError } from '../../errors/cli-usage.error';
import { UnknownAgentError } from '../../errors/unknown-agent.error';
import type { Provider } from '../../llm/provider';
import type { Idea } from '../../protocol/idea';
import type { JSONSchema } from '../../protocol/json-schema';
import type { Message } from '../../protocol/message';
import type { Agent } from '../../agent/agent';
import type { CliIo } from '../cli-io';
import { selectProvider } from './select-provider';

/**
 * Agents built from Idea files for the commands that run stored runs (`ideact worker`, `ideact runs
 * resume|enqueue`): the Idea's Vessel Tools on the chosen provider, as `ideact run` builds them.
 * Modules load on first use, so `ideact --help` stays fast.
 */

/** The options that choose an agent's Ideas and model. */
export interface IdeaAgentOptions {
  /** One Idea for every run. */
  idea?: string;
  /** A folder of Ideas; a run names its Idea by file name without `.json` / `.idea.json`. */
  ideas?: string;
  provider?: string;
  model?: string;
  moduleRoot?: string;
}

/** Ideas by agent name, plus how to make (and dispose of) their agents. */
export interface IdeaAgents {
  /** The agent names served, sorted. */
  names: string[];
  /** The agent of a run (by its agent name; the only one when the worker serves one Idea). */
  agentFor(name: string | undefined): Promise<Agent>;
  /** Disposes every agent made. */
  dispose(): Promise<void>;
}

/** The agent name of an Idea file: its base name without `.idea.json` / `.json`. */
export function agentNameOf(file: string): string {
  return ideaNameOf(file);
}

/** Indexes `--idea FILE` or `--ideas DIR` (recursively) and builds each agent once, when first needed. */
export async function ideaAgents(options: IdeaAgentOptions, io: CliIo): Promise<IdeaAgents> {
  if ((options.idea === undefined) === (options.ideas === undefined)) {
    throw new CliUsageError({
      option: '--idea / --ideas',
      reason: 'give exactly one of them',
      fix: 'Pass --idea FILE for one Idea, or --ideas DIR for a folder of Ideas.',
    });
  }
  const files =
    options.idea !== undefined ? [options.idea] : await ideaFiles(options.ideas as string);
  const byName = new Map<string, string>();
  for (const file of files) {
    const name = agentNameOf(file);
    const other = byName.get(name);
    if (other !== undefined) {
      throw new CliUsageError({
        option: '--ideas',
        reason: `two Ideas are named "${name}" (${other} and ${file})`,
        fix: 'Rename one of them: a run names its Idea by file name.',
      });
    }
    byName.set(name, file);
  }
  const { provider, model } = await selectProvider(options, io);
  const made = new Map<string, Promise<Agent>>();
  const names = [...byName.keys()].sort();
  return {
    names,
    agentFor(name) {
      const key = name ?? (names.length === 1 ? names[0] : undefined);
      const file = key === undefined ? undefined : byName.get(key);
      if (key === undefined || file === undefined) {
        return Promise.reject(new UnknownAgentError({ agentName: name, known: names }));
      }
      let agent = made.get(key);
      if (agent === undefined) {
        agent = buildAgent(file, provider, model, options);
        made.set(key, agent);
      }
      return agent;
    },
    async dispose() {
      for (const agent of made.values()) await (await agent.catch(() => undefined))?.dispose();
    },
  };
}

/** What a new run of an Idea starts from: its context (with `input` as its input message) and output schema. */
export async function ideaRunStart(
  file: string,
  input: { value: unknown } | undefined,
): Promise<{ context: Message[]; output?: JSONSchema }> {
  const { readIdeaFile } = await import('../../codegen/read-idea-file');
  const { vesselIdeaParts } = await import('../../protocol/vessel-idea');
  const idea = await readIdeaFile(file);
  const context = input === undefined ? idea.context : await withInput(idea, input.value, file);
  const parts = vesselIdeaParts({ ...idea, context });
  const output = parts === undefined ? idea.schema : parts.output;
  return { context: parts?.context ?? context, ...(output === undefined ? {} : { output }) };
}

async function buildAgent(
  file: string,
  provider: Provider,
  model: string | undefined,
  options: IdeaAgentOptions,
): Promise<Agent> {
  const { readIdeaFile } = await import('../../codegen/read-idea-file');
  const { vesselIdeaParts } = await import('../../protocol/vessel-idea');
  const { createAgent } = await import('../../container/create-agent');
  const idea = await readIdeaFile(file);
  return createAgent({
    tools: vesselIdeaParts(idea)?.tools ?? [],
    provider,
    // Each Idea's own folder, as `ideact run <file>` resolves its modules.
    moduleRoot: path.resolve(options.moduleRoot ?? path.dirname(file)),
    ...(model === undefined ? {} : { model }),
  });
}

/** Idea files (`.json`) under `dir`, recursively, sorted; a usage error when there are none. */
async function ideaFiles(dir: string): Promise<string[]> {
  const files = await listIdeaFiles(dir);
  if (files.length === 0) {
    throw new CliUsageError({
      option: '--ideas',
      reason: `${dir} holds no Idea files (.json)`,
      fix: 'Point --ideas at the folder of your Ideas, or pass one with --idea FILE.',
    });
  }
  return files;
}

/** The Idea's context with its input message replaced by one holding `value` (checked against its schema). */
async function withInput(idea: Idea, value: unknown, file: string): Promise<Message[]> {
  const { ideaContextWithInput } = await import('../../protocol/idea-input');
  const { formatIssues } = await import('../../errors/validation-issue');
  const { context, issues } = ideaContextWithInput(idea, value);
  if (issues.length > 0) {
    throw new CliUsageError({
      option: '--input',
      reason: `does not match the input schema of ${file}: ${formatIssues(issues).replace(/\n/g, '; ')}`,
      fix: 'Fix the input so it matches the schema (see the Idea’s input message).',
    });
  }
  return context;
}
