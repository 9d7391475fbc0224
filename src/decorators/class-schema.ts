import type { MetadataStorage as TransformerMetadataStorage } from 'class-transformer/types/MetadataStorage';
import { lazyModule } from '../internal/lazy-module';
import { DecoratorError } from '../errors/decorator.error';
import type { JSONSchema } from '../protocol/json-schema';
import type { ClassConstructor } from './class-types';
import { descriptionOf, ownDescriptions } from './describe.decorator';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded when a schema is first built (import cost) */
const jsonSchemaConverter = lazyModule(
  () => require('class-validator-jsonschema') as typeof import('class-validator-jsonschema'),
);
// class-transformer exposes its default (decorator) storage only from this untyped deep path.
const transformerStorage = lazyModule(
  () =>
    (
      require('class-transformer/cjs/storage') as {
        defaultMetadataStorage: TransformerMetadataStorage;
      }
    ).defaultMetadataStorage,
);
/* eslint-enable @typescript-eslint/no-require-imports */

const REF_PREFIX = '#/definitions/';

/** Who asked for the schema, so that errors name the decorator and class the user wrote. @internal */
export interface SchemaUsage {
  decorator: string;
  target: string;
}

/**
 * Converts a class with class-validator decorators to a self-contained JSON Schema object with
 * class-validator-jsonschema. Nested classes (`@ValidateNested()` + `@Type(() => X)`) are inlined rather
 * than emitted as `$ref`s: LLM tool schemas are read top to bottom and some providers reject `$ref`.
 * `@Describe()` texts become `description`s; nested objects get `additionalProperties: false` because
 * params validation rejects unknown properties (`forbidNonWhitelisted`).
 * @internal
 */
export function classToJsonSchema(
  type: ClassConstructor,
  usage: SchemaUsage,
  stack: readonly ClassConstructor[] = [],
): JSONSchema {
  if (stack.includes(type)) {
    throw new DecoratorError({
      ...usage,
      problem: `class ${type.name} contains itself (${[...stack, type].map((entry) => entry.name).join(' → ')}); recursive schemas cannot be inlined.`,
      solutions: [
        'Break the cycle: give the nested property a non-recursive class.',
        'Describe a recursive output with a JSON Schema object: `@Output({ … })`.',
      ],
    });
  }
  const raw = jsonSchemaConverter().targetConstructorToSchema(type, {
    classTransformerMetadataStorage: transformerStorage(),
    refPointerPrefix: REF_PREFIX,
  }) as JSONSchema;
  const properties: Record<string, JSONSchema> = {};
  for (const [propertyName, propertySchema] of Object.entries(raw.properties ?? {})) {
    const inlined = inlineRefs(propertySchema, (reference) =>
      resolveNested(type, propertyName, reference, usage, [...stack, type]),
    ) as JSONSchema;
    const description = descriptionOf(type, propertyName);
    properties[propertyName] = orderKeys(
      description === undefined ? inlined : { ...inlined, description },
    );
  }
  for (const propertyName of ownDescriptions(type).keys()) {
    if (!(propertyName in properties)) {
      throw new DecoratorError({
        decorator: '@Describe',
        target: `${type.name}.${propertyName}`,
        problem: 'the property has no class-validator decorator, so it is not part of the schema.',
        solutions: [
          `Add a type decorator to ${propertyName}: @IsString(), @IsNumber(), @IsBoolean(), @ValidateNested(), …`,
          'Add @IsOptional() as well if the property may be omitted.',
        ],
      });
    }
  }
  const schema: JSONSchema = { type: 'object' };
  if (typeof raw.title === 'string') schema.title = raw.title;
  if (typeof raw.description === 'string') schema.description = raw.description;
  schema.properties = properties;
  if (raw.required !== undefined && raw.required.length > 0) schema.required = [...raw.required];
  return schema;
}

function resolveNested(
  owner: ClassConstructor,
  propertyName: string,
  reference: string,
  usage: SchemaUsage,
  stack: readonly ClassConstructor[],
): JSONSchema {
  const typeMetadata = transformerStorage().findTypeMetadata(owner, propertyName);
  const declared: unknown = typeMetadata
    ? typeMetadata.typeFunction()
    : Reflect.getMetadata('design:type', owner.prototype as object, propertyName);
  if (
    typeof declared === 'function' &&
    declared !== Array &&
    declared !== Object &&
    reference === REF_PREFIX + declared.name
  ) {
    const nested = classToJsonSchema(declared as ClassConstructor, usage, stack);
    return { ...nested, additionalProperties: false };
  }
  throw new DecoratorError({
    ...usage,
    problem: `cannot tell the class of the nested property ${owner.name}.${propertyName}.`,
    solutions: [
      `Add @Type(() => ItsClass) from class-transformer to ${propertyName} (required for arrays of objects).`,
      'Describe the property with a primitive validator (@IsString(), @IsNumber(), …) if it is not an object.',
    ],
  });
}

function inlineRefs(value: unknown, resolve: (reference: string) => JSONSchema): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(item, resolve));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === 'string' && record.$ref.startsWith(REF_PREFIX)) {
    const { $ref: reference, ...rest } = record;
    return { ...resolve(reference as string), ...(inlineRefs(rest, resolve) as object) };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) copy[key] = inlineRefs(item, resolve);
  return copy;
}

/** `type` first, then `description`, then the rest as given: easier to read in prompts. */
function orderKeys(schema: JSONSchema): JSONSchema {
  const { type, description, ...rest } = schema;
  return {
    ...(type === undefined ? {} : { type }),
    ...(description === undefined ? {} : { description }),
    ...rest,
  };
}
