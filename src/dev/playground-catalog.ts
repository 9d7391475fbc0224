import * as path from 'node:path';
import type { ContainerInstance } from 'typedi';
import { readIdeaFile } from '../codegen/read-idea-file';
import { ideaNameOf, listIdeaFiles } from '../codegen/idea-files';
import { agentFromContainer, createAgent } from '../container/create-agent';
import { ACTIVITIES, TOOLS } from '../container/tokens';
import type { Provider } from '../llm/provider';
import type { ValidationIssue } from '../errors/validation-issue';
import type { Idea } from '../protocol/idea';
import { ideaContextWithInput } from '../protocol/idea-input';
import { findIdeaInput, invertIdea } from '../protocol/invert-idea';
import type { JSONSchema } from '../protocol/json-schema';
import { validateJson } from '../protocol/json-validation';
import { readTool, resolveActivity } from '../protocol/read-tool';
import type { ToolSchema } from '../protocol/tool-schema';
import { moduleOutputSchema, vesselIdeaParts } from '../protocol/vessel-idea';
import type { Agent } from '../runtime/loop/agent';
import type { RunOptions } from '../runtime/loop/agent-options';
import type { PlaygroundToolSummary } from './playground-api';

/**
 * What the playground can run: every Tool of the container (`--config`) and every Idea of the ideas
 * folder, each with the schema its form is built from and how a run of it starts. A Tool (and an
 * Idea that is a plain request) runs as one Call; an Idea whose Vessel offers tools runs as an agent.
 */

/** One runnable entry of the catalog. */
export interface CatalogEntry {
  summary: PlaygroundToolSummary;
  /** The schema the runtime validates the params with. */
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  /** The agent its runs use (a one-Call run for Tools, the Idea's own agent for agent Ideas). */
  agent: Agent;
  /** `call`: a run of one Call of this Tool; `agent`: a run of the Idea as an agent. */
  mode: 'call' | 'agent';
  /** Checks `params` with the runtime's validation; for agent Ideas also the run's start options. */
  prepare(params: unknown): {
    issues: ValidationIssue[];
    start?: Pick<RunOptions, 'context' | 'output'>;
  };
}

/** The catalog: entries by name, and what to release at the end. */
export interface PlaygroundCatalog {
  entries: Map<string, CatalogEntry>;
  /** Releases the agents it made. */
  dispose(): Promise<void>;
}

/** The entries of a container: each of its Tools runs as one Call (Activities, modules, latent). */
export function containerEntries(container: ContainerInstance): {
  entries: CatalogEntry[];
  agent: Agent;
} {
  const agent = agentFromContainer(container);
  const registered = new Set(Object.keys(container.get(ACTIVITIES)));
  const entries = container
    .get(TOOLS)
    .map((tool) => toolEntry(tool, agent, registered, { source: 'container' }));
  return { entries, agent };
}

/**
 * The entries of an ideas folder: each Idea file by its name (an agent Idea runs as an agent; a
 * plain one as a module Call), then the Tools the agent Ideas offer whose names are not taken.
 * Module paths resolve in the folder.
 */
export async function ideaEntries(
  ideasDir: string,
  provider: Provider,
): Promise<{ entries: CatalogEntry[]; agents: Agent[] }> {
  const root = path.resolve(ideasDir);
  const ideas: Array<{ name: string; file: string; idea: Idea }> = [];
  for (const file of await listIdeaFiles(root)) {
    ideas.push({
      name: ideaNameOf(file),
      file: path.relative(root, file),
      idea: await readIdeaFile(file),
    });
  }
  const moduleTools: ToolSchema[] = [];
  const offered = new Map<string, ToolSchema>();
  for (const { name, file, idea } of ideas) {
    const parts = vesselIdeaParts(idea);
    if (parts === undefined) {
      const tool = invertIdea(idea, name);
      delete tool.properties._output;
      tool.properties._module = { const: file.split(path.sep).join('/') };
      moduleTools.push(tool);
    } else {
      for (const tool of parts.tools) {
        const toolName = readTool(tool).name;
        if (!offered.has(toolName)) offered.set(toolName, tool);
      }
    }
  }
  const taken = new Set(ideas.map((idea) => idea.name));
  const extra = [...offered.entries()].filter(([name]) => !taken.has(name)).map(([, tool]) => tool);
  const callAgent = createAgent({ tools: [...moduleTools, ...extra], provider, moduleRoot: root });
  const agents = [callAgent];
  const entries: CatalogEntry[] = [];
  for (const { name, file, idea } of ideas) {
    const parts = vesselIdeaParts(idea);
    if (parts === undefined) {
      const tool = moduleTools.find((candidate) => readTool(candidate).name === name) as ToolSchema;
      const entry = toolEntry(tool, callAgent, new Set(), { source: 'idea', file });
      entry.outputSchema = moduleOutputSchema(idea);
      entries.push(entry);
      continue;
    }
    const agent = createAgent({ tools: parts.tools, provider, moduleRoot: root });
    agents.push(agent);
    const inputSchema = findIdeaInput(idea)?.schema ?? { type: 'object', properties: {} };
    const summary: PlaygroundToolSummary = {
      name,
      kind: 'latent',
      source: 'idea',
      file,
      agent: true,
    };
    const description = idea.description ?? inputSchema.description;
    if (description !== undefined) summary.description = description;
    entries.push({
      summary,
      inputSchema,
      ...(parts.output === undefined ? {} : { outputSchema: parts.output }),
      agent,
      mode: 'agent',
      prepare(params) {
        const { context, issues } = ideaContextWithInput(
          { ...idea, context: parts.context },
          params,
        );
        if (issues.length > 0) return { issues };
        return {
          issues,
          start: { context, ...(parts.output === undefined ? {} : { output: parts.output }) },
        };
      },
    });
  }
  for (const tool of extra) entries.push(toolEntry(tool, callAgent, new Set(), { source: 'idea' }));
  return { entries, agents };
}

/** A Tool as a catalog entry: its params schema, kind, module and imports; runs as one Call. */
function toolEntry(
  tool: ToolSchema,
  agent: Agent,
  registered: ReadonlySet<string>,
  origin: { source: 'container' | 'idea'; file?: string },
): CatalogEntry {
  const info = readTool(tool);
  const summary: PlaygroundToolSummary = {
    name: info.name,
    kind: resolveActivity(tool, registered) === '' ? 'latent' : 'explicit',
    source: origin.source,
    agent: false,
  };
  if (info.description !== undefined) summary.description = info.description;
  if (info.module !== undefined) summary.module = info.module;
  if (info.imports.mode !== 'none') {
    const { field: _field, ...imports } = info.imports;
    summary.imports = imports;
  }
  if (origin.file !== undefined) summary.file = origin.file;
  return {
    summary,
    inputSchema: info.params,
    ...(info.output === undefined ? {} : { outputSchema: info.output }),
    agent,
    mode: 'call',
    prepare: (params) => ({ issues: validateJson(info.params, params) }),
  };
}
