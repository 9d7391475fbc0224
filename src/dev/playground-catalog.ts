import * as path from 'node:path';
import type { ContainerInstance } from 'typedi';
import { readIdeaFile } from '../codegen/read-idea-file';
import { ideaNameOf, listIdeaFiles } from '../codegen/idea-files';
import { agentFromContainer, createAgent } from '../container/create-agent';
import { ACTIVITIES, TOOLS } from '../container/tokens';
import type { ActivityMap } from '../container/ideact-config';
import type { Provider } from '../llm/provider';
import type { IdeactError } from '../errors/ideact-error';
import { InvalidParamsError } from '../errors/invalid-params.error';
import type { ValidationIssue } from '../errors/validation-issue';
import type { Idea } from '../protocol/idea';
import { ideaContextWithInput } from '../protocol/idea-input';
import { findIdeaInput, invertIdea } from '../protocol/invert-idea';
import type { JSONSchema } from '../protocol/json-schema';
import { readTool, resolveActivity } from '../protocol/read-tool';
import type { ToolSchema } from '../protocol/tool-schema';
import { moduleOutputSchema, vesselIdeaParts } from '../protocol/vessel-idea';
import type { Agent } from '../agent/agent';
import type { RunOptions } from '../agent/agent-options';
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
  /**
   * Checks `params` the way the run will (a Tool's Call: the call pipeline's own check; an agent
   * Idea: its input schema), and for agent Ideas gives the run's start options.
   */
  prepare(params: unknown): Promise<{
    issues: ValidationIssue[];
    start?: Pick<RunOptions, 'context' | 'output'>;
  }>;
}

/** A file of the ideas folder that is not an Idea (left out of the catalog). */
export interface SkippedIdea {
  /** Relative to the ideas folder. */
  file: string;
  reason: string;
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
 * The entries of an ideas folder: each Idea file (searched recursively) by its name (an agent Idea
 * runs as an agent; a plain one as a module Call), then the Tools the agent Ideas offer whose names
 * are not taken. Module paths resolve in the folder of the Idea that names them (as `ideact run
 * --module-root <its folder>`). Files that are not Ideas are skipped and listed in `skipped`.
 * `activities` (the container's, with `--config`) run the explicit Tools the Ideas offer.
 */
export async function ideaEntries(
  ideasDir: string,
  provider: Provider,
  activities: ActivityMap = {},
): Promise<{ entries: CatalogEntry[]; agents: Agent[]; skipped: SkippedIdea[] }> {
  const root = path.resolve(ideasDir);
  const registered = new Set(Object.keys(activities));
  const ideas: Array<{ name: string; file: string; dir: string; idea: Idea }> = [];
  const skipped: SkippedIdea[] = [];
  for (const file of await listIdeaFiles(root)) {
    const relative = path.relative(root, file);
    try {
      const idea = await readIdeaFile(file);
      ideas.push({ name: ideaNameOf(file), file: relative, dir: path.dirname(file), idea });
    } catch (error) {
      skipped.push({
        file: relative,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  // One agent per folder runs the one-Call runs of the Tools whose modules resolve in that folder.
  const folders = new Map<string, { tools: ToolSchema[]; names: Set<string> }>();
  const folderOf = (dir: string): { tools: ToolSchema[]; names: Set<string> } => {
    let folder = folders.get(dir);
    if (folder === undefined) {
      folder = { tools: [], names: new Set() };
      folders.set(dir, folder);
    }
    return folder;
  };
  const taken = new Set(ideas.map((idea) => idea.name));
  const offered: Array<{ tool: ToolSchema; dir: string }> = [];
  const moduleTools = new Map<string, ToolSchema>();
  for (const { name, file, dir, idea } of ideas) {
    const parts = vesselIdeaParts(idea);
    if (parts === undefined) {
      const tool = invertIdea(idea, name);
      delete tool.properties._output;
      tool.properties._module = { const: path.basename(file) };
      moduleTools.set(`${dir}\0${name}`, tool);
      folderOf(dir).tools.push(tool);
      continue;
    }
    for (const tool of parts.tools) {
      const toolName = readTool(tool).name;
      if (taken.has(toolName)) continue;
      taken.add(toolName);
      offered.push({ tool, dir });
      folderOf(dir).tools.push(tool);
    }
  }
  const callAgents = new Map<string, Agent>();
  for (const [dir, folder] of folders) {
    callAgents.set(
      dir,
      createAgent({ tools: folder.tools, activities: [activities], provider, moduleRoot: dir }),
    );
  }
  const agents = [...callAgents.values()];
  const entries: CatalogEntry[] = [];
  for (const { name, file, dir, idea } of ideas) {
    const parts = vesselIdeaParts(idea);
    if (parts === undefined) {
      const tool = moduleTools.get(`${dir}\0${name}`) as ToolSchema;
      const entry = toolEntry(tool, callAgents.get(dir) as Agent, new Set(), {
        source: 'idea',
        file,
      });
      entry.outputSchema = moduleOutputSchema(idea);
      entries.push(entry);
      continue;
    }
    const agent = createAgent({
      tools: parts.tools,
      activities: [activities],
      provider,
      moduleRoot: dir,
    });
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
      async prepare(params) {
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
  for (const { tool, dir } of offered) {
    entries.push(toolEntry(tool, callAgents.get(dir) as Agent, registered, { source: 'idea' }));
  }
  return { entries, agents, skipped };
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
    prepare: async (params) => {
      const error = await agent.check({ ...(params as Record<string, unknown>), _tool: info.name });
      return { issues: error === undefined ? [] : issuesOf(error) };
    },
  };
}

/** The JSON paths and messages of a Call's check error (one issue at the root for other errors). */
function issuesOf(error: IdeactError): ValidationIssue[] {
  if (InvalidParamsError.isInstance(error)) return error.pointerIssues();
  return [{ path: '', message: error.message }];
}
