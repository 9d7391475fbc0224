import { ContainerInstance } from 'typedi';
import { realExport } from '../internal/lazy-export';

/**
 * The typedi container `createContainer` makes: a `ContainerInstance` that takes the ES module
 * entry's stand-ins of ideact's classes and tokens (`import { Executor, PROVIDER } from 'ideact'`,
 * see src/internal/lazy-export.ts) for the real ones, so `container.get(Executor)` and
 * `container.set(PROVIDER, …)` find the same services from ES modules as from CommonJS.
 * @internal
 */
export class StandInAwareContainer extends ContainerInstance {
  override has<T>(identifier: unknown): boolean {
    return super.has<T>(realExport(identifier) as never);
  }

  override get<T>(identifier: unknown): T {
    return super.get<T>(realExport(identifier) as never);
  }

  override getMany<T>(identifier: unknown): T[] {
    return super.getMany<T>(realExport(identifier) as never);
  }

  override set<T = unknown>(first: unknown, second?: unknown): this {
    return super.set<T>(realIdentifier(first), second as never);
  }

  override remove(identifier: unknown): this {
    const real = Array.isArray(identifier)
      ? identifier.map((item: unknown) => realExport(item))
      : realExport(identifier);
    return super.remove(real as never);
  }
}

/** `set`'s first argument with stand-ins replaced: an identifier, or service options with an `id`. */
function realIdentifier(first: unknown): never {
  const real = realExport(first);
  if (Array.isArray(real)) return real.map((item) => realIdentifier(item)) as never;
  if (typeof real === 'object' && real !== null && 'id' in real) {
    return { ...real, id: realExport((real as { id: unknown }).id) } as never;
  }
  return real as never;
}
