import { DecoratorError } from '../errors/decorator.error';
import { decoratedClass, registerOnce } from './decorator-target';
import { getMetadataStorage } from './metadata-storage';

/** Options of `@Module()`. */
export interface ModuleOptions {
  /**
   * `execution` (default): the module is loaded when the Call runs (R-MOD-3). `upfront`: loaded before the
   * parent Request, so its input schema and output become the tool's params and `_output` (R-MOD-4).
   */
  resolution?: 'execution' | 'upfront';
}

/**
 * Runs the tool's Calls in a clean room (module scope): `reference` is an Idea file path (inside the
 * module root), an allow-listed URL, or `'anonymous'` (empty context, the tool's `_output` as schema).
 */
export function Module(reference: string, options: ModuleOptions = {}): ClassDecorator {
  return (target) => {
    const type = decoratedClass('@Module', target);
    if (typeof reference !== 'string' || reference.trim() === '') {
      throw new DecoratorError({
        decorator: '@Module',
        target: type.name,
        problem: `the module reference is ${reference === '' ? 'empty' : JSON.stringify(reference)}; it must name an Idea file, a URL or 'anonymous'.`,
        solutions: [
          "Pass the path of an Idea file inside the module root: `@Module('ideas/composer.json')`.",
          "Pass an allow-listed URL: `@Module('https://example.com/ideas/composer.json')`.",
          "Pass 'anonymous' for a clean-room sub-request without a file: `@Module('anonymous')`.",
        ],
      });
    }
    const resolution = options.resolution ?? 'execution';
    if (resolution !== 'execution' && resolution !== 'upfront') {
      throw new DecoratorError({
        decorator: '@Module',
        target: type.name,
        problem: `resolution ${JSON.stringify(resolution)} is unknown.`,
        solutions: ["Use `{ resolution: 'execution' }` (default) or `{ resolution: 'upfront' }`."],
      });
    }
    if (resolution === 'upfront' && reference === 'anonymous') {
      throw new DecoratorError({
        decorator: '@Module',
        target: type.name,
        problem: "an 'anonymous' module has no Idea file to resolve upfront.",
        solutions: [
          "Drop `{ resolution: 'upfront' }`; declare the output with @Output instead.",
          'Point @Module at an Idea file to resolve it upfront.',
        ],
      });
    }
    registerOnce('@Module', getMetadataStorage().modules, { target: type, reference, resolution });
  };
}
