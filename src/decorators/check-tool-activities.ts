import { ContainerConfigurationError } from '../errors/container-configuration.error';
import { bothNames } from '../protocol/protocol-vocabulary';
import type { CollectedTool } from './collect-tool-entries';
import { getMetadataStorage } from './metadata-storage';

/**
 * Start checks (createContainer, new Executor with classes) between tools and activities: every explicit `_activity` must be registered
 * (listing the registered ones and, when a known service class declares it, which one to add); a
 * class-declared tool must have some way to run (an Activity, an `_output`, or a `_module` / `_delegate`). @internal
 */
export function checkToolActivities(
  tools: readonly CollectedTool[],
  registered: readonly string[],
  api = 'createContainer',
): void {
  const known = new Set(registered);
  const listed =
    registered.length > 0 ? registered.map((name) => `"${name}"`).join(', ') : '(none)';
  for (const tool of tools) {
    const properties = tool.schema.properties as Record<string, { const?: unknown } | undefined>;
    const activity = properties._activity?.const;
    if (typeof activity === 'string' && activity !== '' && !known.has(activity)) {
      const declaring = getMetadataStorage()
        .serviceActivities.filter((record) => record.name === activity)
        .map((record) => record.target.name);
      throw new ContainerConfigurationError({
        api,
        setting: 'activities',
        problem: `tool "${tool.name}" (${tool.source}) names the Activity "${activity}", which nobody registered (registered: ${listed}).`,
        solutions: [
          ...declaring.map(
            (name) => `Add ${name} (it declares @Activity('${activity}')) to \`activities\`.`,
          ),
          `Register it: \`activities: [{ ${activity}: async (params) => … }]\` or a @Service() class with an @Activity('${activity}') method.`,
          "Fix the name in @Activity(…) / `_activity`, or use @Activity('') for a latent tool.",
        ],
      });
    }
    if (
      tool.type !== undefined &&
      activity === undefined &&
      !known.has(tool.name) &&
      properties._output === undefined &&
      properties._module === undefined &&
      properties._delegate === undefined
    ) {
      throw new ContainerConfigurationError({
        api,
        setting: 'tools',
        problem: `tool "${tool.name}" (${tool.source}) has no way to run: no Activity is registered under its name and it has neither @Output nor ${bothNames('delegateDecorator')}.`,
        solutions: [
          `Register an Activity named "${tool.name}" (same-name convention, R-TOOL-2), or add @Activity('name') for another one.`,
          `Add @Output(ResultClass) so that the LLM produces the output (latent tool).`,
          "Add @Module('anonymous') or @Module('ideas/file.json') (or @Delegate(…), the same decorator) to run it in a clean room.",
        ],
      });
    }
  }
}
