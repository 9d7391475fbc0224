import type { Idea } from '../../protocol/idea';
import type { JSONSchema } from '../../protocol/json-schema';
import type { SystemMessage } from '../../protocol/message';
import type { ToolInfo } from '../../protocol/tool-info';
import { vesselTools } from '../../protocol/vessel-idea';

/**
 * The first message of a module's clean room (R-MOD-1): the Tool's own words — its name and
 * description, and the module Idea's description — so the sub-request knows what it is asked to do.
 * A Vessel schema's description is added too: a nested agent rebuilds the Vessel, so it would be lost.
 * Only designer-written text (never the parent's context); undefined when there is nothing to say.
 * @internal
 */
export function moduleBrief(
  info: ToolInfo,
  idea: Idea,
  schema: JSONSchema,
): SystemMessage | undefined {
  const texts: string[] = [];
  const add = (text: unknown): void => {
    if (typeof text !== 'string' || text.trim() === '' || texts.includes(text)) return;
    texts.push(text);
  };
  add(info.description);
  add(idea.description);
  if (vesselTools(schema) !== undefined) add(schema.description);
  if (texts.length === 0) return undefined;
  return { type: 'system', text: [`## Tool: ${info.name}`, ...texts].join('\n') };
}
