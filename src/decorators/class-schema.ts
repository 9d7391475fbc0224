import { DecoratorError } from '../errors/decorator.error';

import type { JSONSchema } from '../protocol/json-schema';
import { mapSubschemas, type SchemaNode } from '../protocol/schema-walk';
import type { ClassConstructor } from './class-types';
import {
  classValidatorJsonSchema,
  ownValidationMetadata,
  transformerStorage,
} from './class-validation-modules';
import { declaredPosition } from './declared-position';
import { descriptionOf } from './describe.decorator';
import { classChain } from './metadata-storage';
import { completeParamTypes } from './param-properties';
import { PARAM_SCHEMA_CONSTRAINT } from './rule-typing';
import type { SchemaUsage } from './schema-usage';

const jsonSchemaConverter = classValidatorJsonSchema;

const REF_PREFIX = '#/definitions/';

/** The schema type class-validator-jsonschema's converters return (its OpenAPI `SchemaObject`). */
type ConverterSchema = Exclude<
  ReturnType<
    Extract<
      NonNullable<
        NonNullable<
          Parameters<typeof import('class-validator-jsonschema').targetConstructorToSchema>[1]
        >['additionalConverters']
      >[string],
      (...args: never[]) => unknown
    >
  >,
  void
>;

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
  const late = completeParamTypes(type, usage);
  const raw = jsonSchemaConverter().targetConstructorToSchema(type, {
    classTransformerMetadataStorage: transformerStorage(),
    refPointerPrefix: REF_PREFIX,
    additionalConverters: {
      // `@Param({ schema })`: the param's schema as given (merged with its other rules' schemas).
      [PARAM_SCHEMA_CONSTRAINT]: (meta) =>
        structuredClone(meta.constraints[0] as JSONSchema) as ConverterSchema,
    },
  }) as JSONSchema;
  const rawProperties = raw.properties ?? {};
  const properties: Record<string, JSONSchema> = {};
  for (const propertyName of declarationOrder(type, Object.keys(rawProperties), late)) {
    const inlined = inlineRefs(rawProperties[propertyName], (reference) =>
      resolveNested(type, propertyName, reference, usage, [...stack, type]),
    ) as JSONSchema;
    const description = descriptionOf(type, propertyName);
    properties[propertyName] = orderKeys(
      description === undefined ? inlined : { ...inlined, description },
    );
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
  const declared: unknown = typeMetadata?.typeFunction();
  if (
    typeof declared === 'function' &&
    declared !== Array &&
    declared !== Object &&
    reference === REF_PREFIX + declared.name
  ) {
    const nested = classToJsonSchema(declared as ClassConstructor, usage, stack);
    return { ...nested, additionalProperties: false };
  }
  // Without @Type, class-transformer leaves the nested value a plain object and every call would fail
  // validation: say so now, at container start.
  const designType: unknown = Reflect.getMetadata(
    'design:type',
    owner.prototype as object,
    propertyName,
  );
  const className =
    typeof designType === 'function' && designType !== Array && designType !== Object
      ? designType.name
      : 'ItsClass';
  throw new DecoratorError({
    ...usage,
    problem:
      typeMetadata === undefined
        ? `the nested property ${owner.name}.${propertyName} has no @Type(() => ${className}) (class-transformer), so its value would stay a plain object and every call would fail validation.`
        : `cannot tell the class of the nested property ${owner.name}.${propertyName}: its @Type does not name the class its validators describe.`,
    solutions: [
      `Add @Type(() => ${className}) from class-transformer to ${owner.name}.${propertyName} (for arrays too: the item class).`,
      'Describe the property with a primitive validator (@IsString(), @IsNumber(), …) if it is not an object.',
    ],
  });
}

/**
 * `names` (class-validator's order) in declaration order: class-validator keeps it, except for the
 * properties whose type rule ideact added later (`late`); those go after the property declared before
 * them, as `@Describe` recorded it (the others last).
 */
function declarationOrder(
  type: ClassConstructor,
  names: readonly string[],
  late: ReadonlySet<string>,
): string[] {
  const rank = new Map<string, number>();
  names.forEach((name, index) => {
    if (!late.has(name)) rank.set(name, index);
  });
  names.forEach((name, index) => {
    if (!late.has(name)) return;
    const owner = classChain(type).find((entry) => declaredPosition(entry, name) !== undefined);
    const position = owner === undefined ? undefined : declaredPosition(owner, name);
    if (owner === undefined || position === undefined) {
      rank.set(name, names.length + index);
      return;
    }
    const previous = position === 0 ? undefined : ownValidationMetadata(owner)[position - 1];
    const anchor = previous === undefined ? -1 : (rank.get(previous.propertyName) ?? -1);
    rank.set(name, anchor + 0.5 + index / (names.length + 1) / 2);
  });
  return [...names].sort((first, second) => (rank.get(first) ?? 0) - (rank.get(second) ?? 0));
}

/** `schema` with every class `$ref` (in any subschema) replaced by the class's own schema. */
function inlineRefs(schema: SchemaNode, resolve: (reference: string) => JSONSchema): SchemaNode {
  if (typeof schema === 'boolean') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(REF_PREFIX)) {
    const { $ref: reference, ...rest } = schema;
    return { ...resolve(reference), ...(inlineRefs(rest, resolve) as JSONSchema) };
  }
  return mapSubschemas(schema, (child) => inlineRefs(child, resolve));
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
