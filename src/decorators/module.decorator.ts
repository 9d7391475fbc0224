import { DecoratorError } from '../errors/decorator.error';
import { vocabularyName, type ProtocolVocabulary } from '../protocol/protocol-vocabulary';
import { decoratedClass, registerOnce } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';

/** Options of `@Module()` / `@Delegate()`. */
export interface ModuleOptions {
  /**
   * `execution` (default): the module is loaded when the Call runs (R-MOD-3). `upfront`: loaded before the
   * parent Request, so its input schema and output become the tool's params and `_output` (R-MOD-4).
   */
  resolution?: 'execution' | 'upfront';
}

/** Options of `@Delegate()`: the same as `@Module()`'s. */
export type DelegateOptions = ModuleOptions;

/**
 * Runs the tool's Calls in a clean room (module scope): `reference` is an Idea file path (inside the
 * module root), an allow-listed URL, or `'anonymous'` (empty context, the tool's `_output` as schema).
 * Writes `_module`; `@Delegate` is the same decorator in the newer vocabulary.
 */
export function Module(reference: string, options: ModuleOptions = {}): ClassDecorator {
  return delegateDecorator('seeds', reference, options);
}

/**
 * `@Module` under the newer revision's name (R-DEL-1): runs the tool's Calls as delegated calls in
 * isolation — an Idea file path, an allow-listed URL or `'anonymous'`. Writes `_delegate`.
 */
export function Delegate(reference: string, options: DelegateOptions = {}): ClassDecorator {
  return delegateDecorator('acts', reference, options);
}

function delegateDecorator(
  vocabulary: ProtocolVocabulary,
  reference: string,
  options: ModuleOptions,
): ClassDecorator {
  const decorator = vocabularyName('delegateDecorator', vocabulary);
  return (target) => {
    const type = decoratedClass(decorator, target);
    if (typeof reference !== 'string' || reference.trim() === '') {
      throw new DecoratorError({
        decorator,
        target: type.name,
        problem: `the ${vocabularyName('delegate', vocabulary)} reference is ${reference === '' ? 'empty' : JSON.stringify(reference)}; it must name an Idea file, a URL or 'anonymous'.`,
        solutions: [
          `Pass the path of an Idea file inside the module root: \`${decorator}('ideas/composer.json')\`.`,
          `Pass an allow-listed URL: \`${decorator}('https://example.com/ideas/composer.json')\`.`,
          `Pass 'anonymous' for a clean-room sub-request without a file: \`${decorator}('anonymous')\`.`,
        ],
      });
    }
    const resolution = options.resolution ?? 'execution';
    if (resolution !== 'execution' && resolution !== 'upfront') {
      throw new DecoratorError({
        decorator,
        target: type.name,
        problem: `resolution ${JSON.stringify(resolution)} is unknown.`,
        solutions: ["Use `{ resolution: 'execution' }` (default) or `{ resolution: 'upfront' }`."],
      });
    }
    if (resolution === 'upfront' && reference === 'anonymous') {
      throw new DecoratorError({
        decorator,
        target: type.name,
        problem: `an 'anonymous' ${vocabularyName('delegate', vocabulary)} has no Idea file to resolve upfront.`,
        solutions: [
          "Drop `{ resolution: 'upfront' }`; declare the output with @Output instead.",
          `Point ${decorator} at an Idea file to resolve it upfront.`,
        ],
      });
    }
    registerOnce(
      decorator,
      getMetadataStorage().modules,
      { target: type, vocabulary, reference, resolution },
      (entry) => vocabularyName('delegateDecorator', entry.vocabulary),
    );
  };
}
