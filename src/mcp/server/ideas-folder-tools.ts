import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readIdeaFile } from '../../codegen/read-idea-file';
import { ContainerConfigurationError } from '../../errors/container-configuration.error';
import { IdeaFileNotFoundError } from '../../errors/idea-file-not-found.error';
import { invertIdea } from '../../protocol/invert-idea';
import type { ToolSchema } from '../../protocol/tool-schema';
import { moduleOutputSchema } from '../../protocol/vessel-idea';

/**
 * The Ideas of a folder as module Tools (R-TOOL-1 inverted, R-MOD-1): each `.json` file under `dir`
 * (recursively) becomes the Tool named by its file name without `.idea.json` / `.json` (as `ideact run`
 * and workers name them), whose params are the Idea's input and whose `_output` is what the module
 * returns; `_module` is the file relative to `moduleRoot` (default `dir`), where the executor loads it.
 */
export async function ideasFolderTools(dir: string, moduleRoot = dir): Promise<ToolSchema[]> {
  const root = path.resolve(dir);
  let entries: string[];
  try {
    entries = (await fs.readdir(root, { recursive: true })) as string[];
  } catch (error) {
    throw new IdeaFileNotFoundError({ file: dir, cause: error });
  }
  const files = entries.filter((entry) => entry.toLowerCase().endsWith('.json')).sort();
  if (files.length === 0) {
    throw new ContainerConfigurationError({
      api: 'createMcpServer',
      setting: 'ideasDir',
      problem: `${dir} holds no Idea files (.json).`,
      solutions: ['Point ideasDir (`ideact mcp serve --ideas DIR`) at the folder of your Ideas.'],
    });
  }
  const byName = new Map<string, string>();
  const tools: ToolSchema[] = [];
  for (const file of files) {
    const name = toolNameOfIdeaFile(file);
    const other = byName.get(name);
    if (other !== undefined) {
      throw new ContainerConfigurationError({
        api: 'createMcpServer',
        setting: 'ideasDir',
        problem: `two Ideas in ${dir} are named "${name}" (${other} and ${file}).`,
        solutions: ['Rename one of them: the MCP tool is named by the file name.'],
      });
    }
    byName.set(name, file);
    const idea = await readIdeaFile(path.join(root, file));
    const tool = invertIdea({ ...idea, schema: moduleOutputSchema(idea) }, name);
    // Module references use `/` on every platform.
    const reference = path.relative(path.resolve(moduleRoot), path.join(root, file));
    tool.properties._module = { const: reference.split(path.sep).join('/') };
    tools.push(tool);
  }
  return tools;
}

/**
 * The tool name of an Idea file: its base name without `.idea.json` / `.json`, with characters MCP
 * tool names may not hold (anything but letters, digits, `_`, `-`, `.`) replaced by `_`.
 */
export function toolNameOfIdeaFile(file: string): string {
  return path
    .basename(file)
    .replace(/(\.idea)?\.json$/i, '')
    .replace(/[^A-Za-z0-9_.-]/g, '_');
}
