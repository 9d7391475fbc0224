/**
 * A class that can be passed where ideact expects a tool, output or service class. Constructor
 * arguments are not constrained: ideact never calls `new` on tool classes with arguments.
 */
export type ClassConstructor<T extends object = object> = abstract new (...args: never[]) => T;

/** A class decorated with `@Tool()`; may declare `static readonly toolName` (typed calls). */
export type ToolClass<T extends object = object> = ClassConstructor<T> & {
  /** The tool's `_tool` name, if the class fixes it (codegen classes do). */
  readonly toolName?: string;
};

/** A typedi `@Service()` class whose methods carry `@Activity()`. */
export type ServiceClass<T extends object = object> = ClassConstructor<T>;

/** A readable name of a class for messages (`(anonymous class)` when it has none). */
export function className(target: ClassConstructor | object): string {
  if (typeof target === 'function') return target.name || '(anonymous class)';
  return target.constructor?.name || '(anonymous object)';
}
