import { DecoratorError } from '../errors/decorator.error';
import { vocabularyName, type ProtocolVocabulary } from '../protocol/protocol-vocabulary';
import { decoratedClass, registerOnce } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';

/** The LLM chooses, per Call, which of these message kinds to import (dynamic imports). */
export interface ImportsChoice {
  /** The kinds the LLM may pick from, e.g. `['input', 'state', 'profile']`. */
  choose: readonly string[];
}

/** The argument of `@Scopes()`: the same as `@Imports()`'s. */
export type ScopesChoice = ImportsChoice;

/**
 * Which parent-context messages a Call may see (R-IMP-1): a list of kinds fixed by the designer
 * (`_imports: { const }`, hidden from the LLM), or `{ choose: kinds }` to let the LLM pick (shown).
 * `@Scopes` is the same decorator in the newer vocabulary.
 */
export function Imports(kinds: readonly string[] | ImportsChoice): ClassDecorator {
  return scopesDecorator('seeds', kinds);
}

/**
 * `@Imports` under the newer revision's name (R-SCOPE-1): fixed kinds (`_scopes: { const }`) or
 * `{ choose: kinds }` for the LLM to pick per Call (it writes `_scopes` in the Call). Writes `_scopes`.
 */
export function Scopes(kinds: readonly string[] | ScopesChoice): ClassDecorator {
  return scopesDecorator('acts', kinds);
}

function scopesDecorator(
  vocabulary: ProtocolVocabulary,
  kinds: readonly string[] | ImportsChoice,
): ClassDecorator {
  const decorator = vocabularyName('scopesDecorator', vocabulary);
  return (target) => {
    const type = decoratedClass(decorator, target);
    const dynamic = !Array.isArray(kinds) && typeof kinds === 'object' && kinds !== null;
    const list: unknown = dynamic ? (kinds as ImportsChoice).choose : kinds;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((kind) => typeof kind === 'string' && /^[^\s]+$/.test(kind)) ||
      new Set(list).size !== list.length
    ) {
      throw new DecoratorError({
        decorator,
        target: type.name,
        problem: `expected a non-empty list of distinct message kinds, got ${JSON.stringify(list) ?? String(list)}.`,
        solutions: [
          `Fix the kinds: \`${decorator}(['input', 'state'])\`.`,
          `Let the LLM choose among kinds: \`${decorator}({ choose: ['input', 'state'] })\`.`,
          `Drop ${decorator} to give an inline Activity the whole parent context.`,
        ],
      });
    }
    registerOnce(
      decorator,
      getMetadataStorage().imports,
      {
        target: type,
        vocabulary,
        mode: dynamic ? 'dynamic' : 'static',
        kinds: [...(list as string[])],
      },
      (entry) => vocabularyName('scopesDecorator', entry.vocabulary),
    );
  };
}
