import type { JSONSchema } from './json-schema';

/**
 * `part` (a subschema taken out of `root`) with the root's `$defs`/`definitions` added, its own
 * winning on a name clash, so its `#/$defs/…` references still resolve once it stands alone (a
 * Vessel's Tools and output, an `anyOf` branch or a strict-mode branch being validated on its own).
 * Returns `part` itself when the root has no definitions. @internal
 */
export function withRootDefinitions<T extends JSONSchema>(part: T, root: JSONSchema): T {
  if (root.$defs === undefined && root.definitions === undefined) return part;
  const copy: T = { ...part };
  if (root.$defs !== undefined) copy.$defs = { ...root.$defs, ...part.$defs };
  if (root.definitions !== undefined)
    copy.definitions = { ...root.definitions, ...part.definitions };
  return copy;
}
