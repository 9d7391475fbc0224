/**
 * Lazy stand-ins for the ES module entry (issue 28). An ES module's named exports are read when it
 * is imported, so `import { createAgent } from 'ideact'` would load every module behind the
 * package's ~250 exports; the ES entry (dist/index.mjs, made by scripts/esm-entry.mjs) exports, for
 * each function, class and object, a Proxy that loads the real one — the same object
 * `require('ideact')` gives — on first use. A stand-in calls, constructs (`new`, `extends`), answers `instanceof` and
 * static members (`isInstance`, `code`) exactly like the real one; only `===` between a stand-in and
 * the real value is false, which {@link realExport} undoes (the container uses it for class tokens).
 * @internal
 */

/** The property a stand-in answers with the real value (a registry key shared by every copy of ideact). */
const REAL = Symbol.for('ideact.lazyExport.real');

/**
 * A stand-in for the object `load()` returns (a typedi token, a schema, a table): reads, `in`,
 * `instanceof`, `Object.keys`, `JSON.stringify` and `Array.isArray` answer as for the real object,
 * which loads on first use. @internal
 */
export function lazyObject(load: () => unknown, array = false): unknown {
  let loaded: object | undefined;
  const real = (): object => {
    loaded ??= load() as object;
    return loaded;
  };
  const target = (array ? [] : {}) as object;
  return new Proxy(target, {
    get: (_target, key) => (key === REAL ? real() : Reflect.get(real(), key)),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => key === REAL || Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (own, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      const placeholder = Reflect.getOwnPropertyDescriptor(own, key);
      // An array's own `length` is non-configurable: reported as such (a Proxy invariant).
      if (placeholder?.configurable === false) return { ...placeholder, value: descriptor?.value };
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
  });
}

/** The real value behind a stand-in, or the value itself when it is not one. @internal */
export function realExport<T>(value: T): T {
  if ((typeof value !== 'function' && typeof value !== 'object') || value === null) return value;
  const real = (value as { [REAL]?: unknown })[REAL];
  return real === undefined ? value : (real as T);
}

/**
 * A stand-in for the function or class `load()` returns, named `name` until it is loaded.
 * `load` runs once, on the first use of the stand-in. @internal
 */
export function lazyExport(name: string, load: () => unknown): unknown {
  let loaded: (((...args: unknown[]) => unknown) & object) | undefined;
  const real = (): ((...args: unknown[]) => unknown) & object => {
    loaded ??= load() as ((...args: unknown[]) => unknown) & object;
    return loaded;
  };
  // A plain function as target: callable and constructible, with a writable `prototype`, so the
  // traps may answer with the real class's members without breaking Proxy invariants.
  const placeholder = function () {} as unknown as object;
  Object.defineProperty(placeholder, 'name', { value: name });
  const standIn: object = new Proxy(placeholder, {
    apply: (_target, self, args) => Reflect.apply(real(), self, args),
    // `new StandIn()` constructs the real class; a subclass (`extends StandIn`) stays `new.target`.
    construct: (_target, args, newTarget) =>
      Reflect.construct(real(), args, newTarget === standIn ? real() : newTarget),
    get: (_target, key) => (key === REAL ? real() : Reflect.get(real(), key)),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => key === REAL || Reflect.has(real(), key),
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    ownKeys: (target) => {
      const keys = Reflect.ownKeys(real());
      // The placeholder's own non-configurable `prototype` must be listed (a Proxy invariant).
      for (const key of Reflect.ownKeys(target)) {
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (own?.configurable === false && !keys.includes(key)) keys.push(key);
      }
      return keys;
    },
    getOwnPropertyDescriptor: (target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      const own = Reflect.getOwnPropertyDescriptor(target, key);
      if (own?.configurable === false) {
        // Reported as the placeholder has it (non-configurable), with the real value.
        return { ...own, value: descriptor?.value ?? own.value };
      }
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  });
  return standIn;
}
