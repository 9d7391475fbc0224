import { toolName } from './read-tool';
import type { ToolSchema } from './tool-schema';

/**
 * R-TOOL-5 (tool overriding, newer revision): Tools are identified by `_tool`; when one name is
 * defined twice in one context, the later definition wins and the earlier ones are dropped. Keeps
 * the survivors in their order (the winner at its own, later, position). `nameOf` reads the name
 * of an entry (default: the Tool schema's `_tool` const).
 */
export function latestToolDefinitions<T>(
  tools: readonly T[],
  nameOf: (tool: T) => string = (tool) => toolName(tool as ToolSchema),
): T[] {
  const names = tools.map(nameOf);
  const lastIndex = new Map<string, number>();
  names.forEach((name, index) => lastIndex.set(name, index));
  return tools.filter((_tool, index) => lastIndex.get(names[index]!) === index);
}
