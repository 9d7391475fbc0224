/**
 * Loads a dependency on first use instead of at import time, so `require('ideact')` stays fast
 * (the OpenAI client, ajv, class-validator and friends cost ~100 ms together) and users pay only
 * for what they use. `load` is called once; its result is kept.
 * @internal
 */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}
