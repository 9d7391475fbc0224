import { CodegenError } from '../errors/codegen.error';
import { InvalidSchemaError } from '../errors/invalid-schema.error';
import type { Idea } from '../protocol/idea';
import { isInputMessage } from '../protocol/data-view';
import { findIdeaInput } from '../protocol/invert-idea';
import type { JSONSchema } from '../protocol/json-schema';
import { vocabularyName } from '../protocol/protocol-vocabulary';
import { schemaVocabulary } from '../protocol/tool-meta-names';
import { moduleOutputSchema, vesselTools } from '../protocol/vessel-idea';
import { ClassBuilder } from './schema-to-classes';
import { ImportSet, type ClassModel, type CodegenWarning } from './codegen-model';
import { generateTypes, type GeneratedTypes } from './generate-types';
import { renderLiteral } from './literal';
import { ideaBaseName, propertyKey, quote, toPascalCase } from './naming';
import { localizeReferences } from './schema-references';
import { MissingPackageError } from '../errors/missing-package.error';

/** What {@link generateIdeaSource} needs besides the Idea. */
export interface IdeaSourceOptions {
  /** The Idea file as the user named it; used in warnings and errors. */
  ideaFile: string;
  /** The Idea's path relative to the module root, with `/` separators (goes into `@Module` / `@Delegate`). */
  modulePath: string;
  /** Directory external `$ref`s resolve against (the Idea file's directory). */
  cwd: string;
  /** Download http(s) `$ref`s; without it such a `$ref` is an `InvalidSchemaError` (codegen stays offline). */
  allowRemoteRefs?: boolean;
}

/** One generated TypeScript file. */
export interface GeneratedIdeaSource {
  /** The Tool class name, e.g. `Lyricist`. */
  className: string;
  /** The Tool name (`_tool`), e.g. `lyricist`. */
  toolName: string;
  /** The complete file text. */
  source: string;
  /** Schema parts that are typed exactly but validated only approximately. */
  warnings: CodegenWarning[];
}

/** Idea names usable as `_tool` names as they are. */
const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Names the generated file may import; nested type names must not shadow them. */
const RESERVED_NAMES = [
  'Tool',
  'Module',
  'Delegate',
  'Output',
  'Describe',
  'Type',
  'Allow',
  'ArrayMaxSize',
  'ArrayMinSize',
  'ArrayUnique',
  'IsArray',
  'IsBoolean',
  'IsDivisibleBy',
  'IsEmail',
  'IsIn',
  'IsInt',
  'IsISO8601',
  'IsNumber',
  'IsObject',
  'IsOptional',
  'IsString',
  'IsUrl',
  'IsUUID',
  'Matches',
  'Max',
  'MaxLength',
  'Min',
  'MinLength',
  'ValidateNested',
];

/**
 * Generates the TypeScript file for one Idea: `XInput`/`XOutput` types (json-schema-to-typescript),
 * nested params classes and the Tool class `X` with `@Tool`, `@Module(path, { resolution: 'upfront' })`
 * (`@Delegate` when the Idea's Tools are written with `_delegate`/`_scopes`), `@Output(schema)`,
 * class-validator decorators and the typed-call fields. Pure apart from reading
 * external `$ref`s: the same Idea and options always give the same bytes.
 */
export async function generateIdeaSource(
  idea: Idea,
  options: IdeaSourceOptions,
): Promise<GeneratedIdeaSource> {
  const baseName = ideaBaseName(options.modulePath);
  const className = toPascalCase(baseName);
  const warnings: CodegenWarning[] = [];
  const warn = (jsonPath: string, message: string): void => {
    warnings.push({ ideaFile: options.ideaFile, jsonPath, message });
  };
  let toolName = baseName;
  if (typeof idea.name === 'string' && TOOL_NAME.test(idea.name)) toolName = idea.name;
  else if (idea.name !== undefined) {
    warn(
      '/name',
      `the Idea name ${JSON.stringify(idea.name)} is not a usable tool name (letters, digits, "_", "-", "."; no leading "_"); the tool is named "${baseName}" after the file`,
    );
  }

  const input = locateInput(idea);
  if (input.index === undefined) {
    warn(
      '/context',
      'the Idea has no input message, so the Tool takes no params (add an `input` message with a schema to make it callable with params)',
    );
  } else if (input.schema === undefined) {
    warn(
      `/context/${input.index}`,
      'the input message has no schema; params are typed as an open object and not validated',
    );
  }
  const inputPath = input.index === undefined ? '/context' : `/context/${input.index}/schema`;
  const references = {
    ideaFile: options.ideaFile,
    allowRemoteRefs: options.allowRemoteRefs === true,
  };
  const inputSchema: JSONSchema = localizeReferences(
    input.schema ?? { type: 'object', properties: {} },
    { ...references, jsonPath: inputPath },
  );
  // An agent Idea (a Vessel schema, R-MOD-5) returns its final output, not the Vessel with its Calls.
  const isAgent = vesselTools(idea.schema) !== undefined;
  const outputPath = isAgent ? '/schema/properties/output' : '/schema';
  const outputSchema = moduleOutputSchema({
    ...idea,
    schema: localizeReferences(idea.schema, { ...references, jsonPath: '/schema' }),
  });

  const taken = new Set<string>([className, ...RESERVED_NAMES]);
  const inputTypes =
    input.schema === undefined
      ? noInputTypes(`${className}Input`, input.index === undefined, taken)
      : await typesFor(inputSchema, `${className}Input`, taken, options, inputPath);
  const outputTypes = await typesFor(
    outputSchema,
    `${className}Output`,
    taken,
    options,
    outputPath,
  );

  const imports = new ImportSet();
  const classes =
    input.schema === undefined
      ? [{ name: className, properties: [] } satisfies ClassModel]
      : new ClassBuilder({
          root: inputSchema,
          rootPath: inputPath,
          className,
          takenNames: taken,
          imports,
          warn,
        }).build();
  const toolClass = classes[classes.length - 1]!;
  const nestedClasses = classes.slice(0, -1);

  const toolOptions: Record<string, unknown> = { name: toolName };
  if (typeof idea.description === 'string' && idea.description !== '') {
    toolOptions.description = idea.description;
  }
  // The Idea's own vocabulary (R-DEL-1): `@Delegate` for an Idea written with `_delegate`/`_scopes`.
  const delegateDecorator = vocabularyName(
    'delegateDecorator',
    schemaVocabulary(idea.schema),
  ).slice(1);
  const classDecorators = [
    `@${imports.use('ideact', 'Tool')}(${renderLiteral(toolOptions)})`,
    `@${imports.use('ideact', delegateDecorator)}(${quote(options.modulePath)}, { resolution: 'upfront' })`,
    `@${imports.use('ideact', 'Output')}(${renderLiteral(moduleOutputSchema(idea))})`,
  ];

  const parts: string[] = [
    header(options.modulePath),
    imports.render().join('\n'),
    inputTypes.source,
    outputTypes.source,
    ...nestedClasses.map((model) =>
      renderClass(model, [
        `/** Nested params of the \`${toolName}\` Tool (validated with @ValidateNested). */`,
      ]),
    ),
    renderClass(
      toolClass,
      [
        '/**',
        ...(typeof idea.description === 'string' && idea.description !== ''
          ? idea.description.split('\n').map((line) => ` * ${line}`.trimEnd())
          : []),
        ` * The \`${toolName}\` Tool (Idea ${options.modulePath}); typed calls: \`executor.call(${className}, params)\`.`,
        ...(isAgent
          ? [
              ' * An agent Idea (R-MOD-5): it runs as a nested agent that executes its Calls and returns its',
              ' * output; call it through `agent.call` or the Executor of `createContainer`/`createAgent`.',
            ]
          : []),
        ' */',
        ...classDecorators,
      ],
      [
        '  /** The Tool name, used by typed calls. */',
        `  static readonly toolName = ${quote(toolName)};`,
        '  /** Compile-time only: the param and output types of this Tool. */',
        `  declare static readonly __ideactTypes?: { input: ${className}Input; output: ${className}Output };`,
      ],
    ),
  ];
  return { className, toolName, source: `${parts.join('\n\n')}\n`, warnings };
}

function header(modulePath: string): string {
  return [
    `// Generated by \`ideact codegen\` from the Idea ${modulePath}. Do not edit by hand:`,
    '// change the Idea and run `ideact codegen` again (`ideact codegen --check` reports stale files).',
  ].join('\n');
}

/** Where the Idea's input is: the message index (for JSON paths) and the effective schema. */
function locateInput(idea: Idea): { index?: number; schema?: JSONSchema } {
  const found = findIdeaInput(idea);
  let index: number | undefined;
  idea.context.forEach((message, position) => {
    if (!isInputMessage(message)) return;
    const schema = (message as { schema?: JSONSchema }).schema;
    if (index === undefined || (found?.schema !== undefined && schema === found.schema))
      index = position;
  });
  if (found === undefined && index === undefined) return {};
  return { index, schema: found?.schema };
}

/** Compiles one schema; on a name clash with names already in the file, recompiles with a prefix. */
async function typesFor(
  schema: JSONSchema,
  rootName: string,
  taken: Set<string>,
  options: IdeaSourceOptions,
  jsonPath: string,
): Promise<GeneratedTypes> {
  try {
    const typeOptions = {
      cwd: options.cwd,
      ideaFile: options.ideaFile,
      allowRemoteRefs: options.allowRemoteRefs,
    };
    let types = await generateTypes(schema, rootName, typeOptions);
    if (types.names.some((name) => taken.has(name))) {
      types = await generateTypes(schema, rootName, { ...typeOptions, prefix: rootName });
    }
    const clash = types.names.find((name) => taken.has(name));
    if (clash !== undefined) {
      throw new CodegenError({
        file: options.ideaFile,
        jsonPath,
        reason: `the generated type name "${clash}" is used twice in the file`,
        fix: 'Rename the schema title or definition that produces it.',
      });
    }
    for (const name of types.names) taken.add(name);
    return types;
  } catch (error) {
    if (
      CodegenError.isInstance(error) ||
      InvalidSchemaError.isInstance(error) ||
      MissingPackageError.isInstance(error)
    ) {
      throw error;
    }
    throw new CodegenError({
      file: options.ideaFile,
      jsonPath,
      reason: `json-schema-to-typescript rejected the schema (${error instanceof Error ? error.message : String(error)})`,
      fix: 'Fix the schema so it is valid JSON Schema (local $refs must point inside it).',
      cause: error,
    });
  }
}

/** Without an input schema: no params at all, or (schema-less input message) an open object. */
function noInputTypes(rootName: string, noMessage: boolean, taken: Set<string>): GeneratedTypes {
  taken.add(rootName);
  const source = noMessage
    ? `/** The Idea has no input message: the Tool takes no params. */\nexport type ${rootName} = Record<string, never>;`
    : `/** The Idea's input message has no schema: any params. */\nexport type ${rootName} = Record<string, unknown>;`;
  return { source, names: [rootName] };
}

function renderClass(model: ClassModel, before: string[], staticMembers: string[] = []): string {
  const members: string[] = [];
  if (staticMembers.length > 0) members.push(staticMembers.join('\n'));
  for (const property of model.properties) {
    const lines = property.decorators.map((decorator) => `  @${decorator}`);
    lines.push(
      `  ${propertyKey(property.name)}${property.optional ? '?' : '!'}: ${property.type};`,
    );
    members.push(lines.join('\n'));
  }
  const body = members.length === 0 ? '{}' : `{\n${members.join('\n\n')}\n}`;
  return [...before, `export class ${model.name} ${body}`].join('\n');
}
