import { DecoratorError } from '../errors/decorator.error';
import { decoratedClass, registerOnce } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';

/** The LLM chooses, per Call, which of these message kinds to import (dynamic imports). */
export interface ImportsChoice {
  /** The kinds the LLM may pick from, e.g. `['input', 'state', 'profile']`. */
  choose: readonly string[];
}

/**
 * Which parent-context messages a Call may see (R-IMP-1): a list of kinds fixed by the designer
 * (`_imports: { const }`, hidden from the LLM), or `{ choose: kinds }` to let the LLM pick (shown).
 */
export function Imports(kinds: readonly string[] | ImportsChoice): ClassDecorator {
  return (target) => {
    const type = decoratedClass('@Imports', target);
    const dynamic = !Array.isArray(kinds) && typeof kinds === 'object' && kinds !== null;
    const list: unknown = dynamic ? (kinds as ImportsChoice).choose : kinds;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((kind) => typeof kind === 'string' && /^[^\s]+$/.test(kind)) ||
      new Set(list).size !== list.length
    ) {
      throw new DecoratorError({
        decorator: '@Imports',
        target: type.name,
        problem: `expected a non-empty list of distinct message kinds, got ${JSON.stringify(list) ?? String(list)}.`,
        solutions: [
          "Fix the imported kinds: `@Imports(['input', 'state'])`.",
          "Let the LLM choose among kinds: `@Imports({ choose: ['input', 'state'] })`.",
          'Drop @Imports to give an inline Activity the whole parent context.',
        ],
      });
    }
    registerOnce('@Imports', getMetadataStorage().imports, {
      target: type,
      mode: dynamic ? 'dynamic' : 'static',
      kinds: [...(list as string[])],
    });
  };
}
