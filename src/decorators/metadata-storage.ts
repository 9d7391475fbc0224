import { vocabularyName } from '../protocol/protocol-vocabulary';
import type { ClassConstructor } from './class-types';
import type {
  ImportsMetadataArgs,
  ModuleMetadataArgs,
  OutputMetadataArgs,
  OutputPathMetadataArgs,
  ServiceActivityMetadataArgs,
  ToolActivityMetadataArgs,
  ToolMetadataArgs,
} from './metadata-args';

/**
 * The one place ideact's class and method decorators record into (routing-controllers style): they only
 * push plain entries here; `toolSchema()` and `createContainer()` turn them into schemas and
 * registrations. Property-level schema metadata (class-validator rules, `@Describe`) lives on the classes
 * themselves, like class-validator's, and survives `reset()`.
 */
export class MetadataStorage {
  readonly tools: ToolMetadataArgs[] = [];
  readonly outputs: OutputMetadataArgs[] = [];
  readonly toolActivities: ToolActivityMetadataArgs[] = [];
  readonly serviceActivities: ServiceActivityMetadataArgs[] = [];
  readonly modules: ModuleMetadataArgs[] = [];
  readonly imports: ImportsMetadataArgs[] = [];
  readonly outputPaths: OutputPathMetadataArgs[] = [];

  /** Forgets every record (for tests: call it in `beforeEach`, then declare the classes). */
  reset(): void {
    for (const records of [
      this.tools,
      this.outputs,
      this.toolActivities,
      this.serviceActivities,
      this.modules,
      this.imports,
      this.outputPaths,
    ] as unknown[][]) {
      records.length = 0;
    }
  }

  /** The record of `target` or, failing that, of its nearest decorated base class. */
  findInherited<T extends { target: ClassConstructor }>(
    records: readonly T[],
    target: ClassConstructor,
  ): T | undefined {
    for (const type of classChain(target)) {
      const record = records.find((entry) => entry.target === type);
      if (record) return record;
    }
    return undefined;
  }

  /** The record made on exactly `target` (no inheritance); used to reject duplicate decorators. */
  findOwn<T extends { target: ClassConstructor }>(
    records: readonly T[],
    target: ClassConstructor,
  ): T | undefined {
    return records.find((entry) => entry.target === target);
  }

  /** Method Activities of `target` and its base classes (a subclass's record wins per method). */
  serviceActivitiesOf(target: ClassConstructor): ServiceActivityMetadataArgs[] {
    const byMethod = new Map<string, ServiceActivityMetadataArgs>();
    for (const type of classChain(target)) {
      for (const record of this.serviceActivities) {
        if (record.target === type && !byMethod.has(record.methodName)) {
          byMethod.set(record.methodName, record);
        }
      }
    }
    return [...byMethod.values()];
  }

  /** The ideact class decorators applied to `target` itself (used to explain a missing `@Tool`). */
  classDecoratorsOf(target: ClassConstructor): string[] {
    const found: string[] = [];
    if (this.findOwn(this.outputs, target)) found.push('@Output');
    if (this.findOwn(this.toolActivities, target)) found.push('@Activity');
    const module = this.findOwn(this.modules, target);
    if (module) found.push(vocabularyName('delegateDecorator', module.vocabulary));
    const imports = this.findOwn(this.imports, target);
    if (imports) found.push(vocabularyName('scopesDecorator', imports.vocabulary));
    if (this.findOwn(this.outputPaths, target)) found.push('@OutputPath');
    return found;
  }
}

/** `target`, then its base classes up to (excluding) `Function.prototype`. @internal */
export function classChain(target: ClassConstructor): ClassConstructor[] {
  const chain: ClassConstructor[] = [];
  let current: unknown = target;
  while (typeof current === 'function' && current !== Function.prototype) {
    chain.push(current as ClassConstructor);
    current = Object.getPrototypeOf(current);
  }
  return chain;
}

const STORAGE_KEY = Symbol.for('ideact.metadata-storage');

/**
 * The process-wide decorator metadata storage (namespaced on `globalThis` by a `Symbol.for` key, so two
 * copies of ideact share it). Tests call `getMetadataStorage().reset()` in `beforeEach`.
 */
export function getMetadataStorage(): MetadataStorage {
  const holder = globalThis as { [STORAGE_KEY]?: MetadataStorage };
  holder[STORAGE_KEY] ??= new MetadataStorage();
  return holder[STORAGE_KEY];
}
