import type { JSONSchema } from '../protocol/json-schema';
import { renameReferences } from '../protocol/rename-references';
import { toPascalCase } from './naming';
import { referenceResolverOptions, remoteReferenceError } from './schema-references';
import { MissingPackageError } from '../errors/missing-package.error';
import { rethrowMissing } from '../internal/optional-module';

/** The TypeScript declarations json-schema-to-typescript produced for one schema, and their names. */
export interface GeneratedTypes {
  /** Formatted `export interface …` / `export type …` declarations. */
  source: string;
  /** Every exported type name declared in `source` (the root name first). */
  names: string[];
}

/** Formatting fixed here (not read from a user's prettier config) so output is the same everywhere. */
const STYLE = {
  singleQuote: true,
  printWidth: 100,
  trailingComma: 'all',
  bracketSpacing: true,
  semi: true,
  tabWidth: 2,
  useTabs: false,
} as const;

/**
 * Compiles `schema` to TypeScript declarations whose root type is named `rootName`
 * (json-schema-to-typescript; nested titled schemas and `$ref`/`definitions`/`$defs` become their
 * own exported types). With `prefix`, every nested named type is prefixed so that two schemas
 * compiled into one file cannot declare the same name twice. `cwd` resolves external `$ref`s;
 * http(s) `$ref`s (also inside referenced files) fail with `InvalidSchemaError` unless allowed.
 */
export async function generateTypes(
  schema: JSONSchema,
  rootName: string,
  options: { prefix?: string; cwd: string; ideaFile: string; allowRemoteRefs?: boolean },
): Promise<GeneratedTypes> {
  // Lazy and optional: json-schema-to-typescript pulls in prettier; only codegen needs it.
  const { compile } = schemaCompiler();
  const root = mergeDefinitions(structuredClone(schema)) as Record<string, unknown>;
  delete root.$id;
  delete root.$schema;
  root.title = rootName;
  const prefix = options.prefix;
  const blocked: string[] = [];
  const source = await compile(root as Parameters<typeof compile>[0], rootName, {
    bannerComment: '',
    additionalProperties: false,
    strictIndexSignatures: true,
    unknownAny: true,
    declareExternallyReferenced: true,
    unreachableDefinitions: false,
    ignoreMinAndMaxItems: true,
    cwd: options.cwd,
    $refOptions: referenceResolverOptions(options.allowRemoteRefs === true, blocked),
    format: true,
    style: { ...STYLE },
    customName:
      prefix === undefined
        ? undefined
        : (node, keyNameFromDefinition) => {
            if (node.title === rootName) return undefined;
            const own = node.title ?? node.$id ?? keyNameFromDefinition;
            return own === undefined ? undefined : `${prefix}${toPascalCase(own)}`;
          },
  }).catch((error: unknown) => {
    if (blocked.length > 0)
      throw remoteReferenceError(blocked[0]!, options.ideaFile, undefined, error);
    throw error;
  });
  return { source: source.trim(), names: declaredNames(source, rootName) };
}

/** Names of the top-level exported declarations in generated source, root first. */
function declaredNames(source: string, rootName: string): string[] {
  const names = new Set<string>([rootName]);
  for (const match of source.matchAll(
    /^export (?:declare )?(?:interface|type|const enum|enum) ([A-Za-z_$][\w$]*)/gm,
  )) {
    names.add(match[1]!);
  }
  return [...names];
}

/**
 * json-schema-to-typescript refuses a schema with both `definitions` and `$defs`; JSON Schema allows
 * it. Moves `definitions` into `$defs` (rewriting `#/definitions/…` references) when no name clashes.
 */
function mergeDefinitions(schema: JSONSchema): JSONSchema {
  const { definitions, $defs } = schema;
  if (definitions === undefined || $defs === undefined) return schema;
  if (Object.keys(definitions).some((name) => name in $defs)) return schema;
  const { definitions: moved, ...rest } = renameReferences(schema, (reference) =>
    reference.startsWith('#/definitions/')
      ? `#/$defs/${reference.slice('#/definitions/'.length)}`
      : undefined,
  );
  return { ...rest, $defs: { ...rest.$defs, ...moved } };
}

/** json-schema-to-typescript, required in a `try` so that bundlers leave it optional. */
function schemaCompiler(): typeof import('json-schema-to-typescript') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional, loaded on first use
    return require('json-schema-to-typescript') as typeof import('json-schema-to-typescript');
  } catch (error) {
    return rethrowMissing(
      error,
      'json-schema-to-typescript',
      (cause) =>
        new MissingPackageError({
          packageName: 'json-schema-to-typescript',
          feature: 'Codegen (ideact codegen, generateFromIdeas)',
          cause,
        }),
    );
  }
}
