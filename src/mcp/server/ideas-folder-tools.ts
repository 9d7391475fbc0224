import * as path from 'node:path';
import { ideaNameOf, listIdeaFiles } from '../../codegen/idea-files';
import { readIdeaFile } from '../../codegen/read-idea-file';
import { ContainerConfigurationError } from '../../errors/container-configuration.error';
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
  const files = await listIdeaFiles(dir);
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
  for (const found of files) {
    const absolute = path.resolve(found);
    const file = path.relative(root, absolute);
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
    const idea = await readIdeaFile(absolute);
    const tool = invertIdea({ ...idea, schema: moduleOutputSchema(idea) }, name);
    // Module references use `/` on every platform.
    const reference = path.relative(path.resolve(moduleRoot), absolute);
    tool.properties._module = { const: reference.split(path.sep).join('/') };
    tools.push(tool);
  }
  return tools;
}

/**
 * The tool name of an Idea file: its name as `ideact run` and workers know it (`ideaNameOf`), with
 * characters MCP tool names may not hold (anything but letters, digits, `_`, `-`, `.`) replaced by `_`.
 */
export function toolNameOfIdeaFile(file: string): string {
  return ideaNameOf(file).replace(/[^A-Za-z0-9_.-]/g, '_');
}
