import { DecoratorError } from '../errors/decorator.error';

/** Throws unless `name` is usable as a `_tool` name. @internal */
export function assertToolName(name: unknown, target: string): void {
  if (typeof name === 'string' && /^[^\s_]\S*$/.test(name)) return;
  throw new DecoratorError({
    decorator: '@Tool',
    target,
    problem: `${JSON.stringify(name)} is not a valid tool name (non-empty, no spaces, must not start with "_": "_"-names are meta-fields).`,
    solutions: [
      "Pass a name like `@Tool({ name: 'weatherReport' })`.",
      'Omit `name` to use the camelCased class name.',
    ],
  });
}
