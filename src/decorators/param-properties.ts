import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { JSONSchema } from '../protocol/json-schema';
import { validateJson } from '../protocol/json-validation';
import type { ClassConstructor } from './class-types';
import {
  classValidator,
  ownTransformerProperties,
  ownValidationMetadata,
  transformerStorage,
} from './class-validation-modules';
import { ownDescriptions } from './describe.decorator';
import { classChain } from './metadata-storage';
import { ownParams, paramOf, type ParamType } from './param.decorator';
import { nestedWithoutType, typeNotStated, untypable } from './param-type-errors';
import { constraintName, PARAM_SCHEMA_CONSTRAINT, ruleTyping } from './rule-typing';
import type { SchemaUsage } from './schema-usage';

/** The class-validator rule `@Param({ type })` stands for, by its constraint name. */
const PARAM_TYPE_RULES: Record<ParamType, { name: string; rule: () => PropertyDecorator }> = {
  string: { name: 'isString', rule: () => classValidator().IsString() },
  number: { name: 'isNumber', rule: () => classValidator().IsNumber() },
  integer: { name: 'isInt', rule: () => classValidator().IsInt() },
  boolean: { name: 'isBoolean', rule: () => classValidator().IsBoolean() },
  array: { name: 'isArray', rule: () => classValidator().IsArray() },
  object: { name: 'isObject', rule: () => classValidator().IsObject() },
};

/**
 * The properties (by declaring class) whose type rule ideact added, and whether class-validator
 * lists them last (they had no rule at all before).
 */
const addedRules = new WeakMap<ClassConstructor, Map<string, boolean>>();

/**
 * Makes every property ideact can see part of the schema, typed. A property's type comes from, in
 * this order: `@Param` (its rule is added), its class-validator type decorators, the TypeScript type
 * the compiler recorded (`design:type`, with `emitDecoratorMetadata`: ideact adds the rule of a
 * string, number, boolean or array), class-transformer's `@Type(() => Number)`. So a property with
 * only `@Describe`, `@Type`, `@IsOptional`, `@IsDefined` or `@ValidateIf` gets a type rule, and schema
 * and validation agree. What cannot be typed (a union or `any`, a nested class without
 * `@ValidateNested`, no type stated at all in a program compiled without metadata) is a
 * DecoratorError naming the class, the property and the decorator to add. Idempotent. Returns the
 * properties whose rule ideact added (now or before) that class-validator lists last.
 * @internal
 */
export function completeParamTypes(type: ClassConstructor, usage: SchemaUsage): Set<string> {
  const metadata = classValidator()
    .getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false);
  const rules = new Map<string, ValidationMetadata[]>();
  for (const entry of metadata) {
    rules.set(entry.propertyName, [...(rules.get(entry.propertyName) ?? []), entry]);
  }
  const names = new Set(rules.keys());
  for (const owner of classChain(type)) {
    for (const name of ownDescriptions(owner).keys()) names.add(name);
    for (const name of ownParams(owner).keys()) names.add(name);
    for (const name of ownTransformerProperties(owner)) names.add(name);
  }
  const late = new Set<string>();
  for (const name of names) {
    const owner = declaringClass(type, name);
    const added = addedRules.get(owner)?.get(name);
    if (added !== undefined) {
      if (added) late.add(name);
      continue;
    }
    const propertyRules = rules.get(name) ?? [];
    const rule = ruleToAdd(type, name, propertyRules, usage);
    if (rule === undefined) continue;
    rule(owner.prototype as object, name);
    const listedLast = propertyRules.length === 0;
    addedRules.set(owner, new Map([...(addedRules.get(owner) ?? []), [name, listedLast]]));
    if (listedLast) late.add(name);
  }
  return late;
}

/** The rule ideact adds to `type.name` so that it is typed; undefined when its rules type it. */
function ruleToAdd(
  type: ClassConstructor,
  name: string,
  propertyRules: readonly ValidationMetadata[],
  usage: SchemaUsage,
): PropertyDecorator | undefined {
  const where = `${type.name}.${name}`;
  const param = paramOf(type, name);
  if (param?.kind === 'schema') return paramSchemaRule(param.schema);
  if (param?.kind === 'type') {
    const { name: constraint, rule } = PARAM_TYPE_RULES[param.type];
    return propertyRules.some((entry) => constraintName(entry) === constraint) ? undefined : rule();
  }
  const typings = propertyRules.map((entry) => ruleTyping(type, entry));
  const designType: unknown = Reflect.getMetadata('design:type', type.prototype as object, name);
  if (designType !== undefined) {
    // Compiled with emitDecoratorMetadata: the TypeScript type types what the rules leave open.
    if (typings.some((typing) => typing !== 'none')) return undefined;
    const rule = ruleFor(designType);
    if (rule === undefined) throw untypable(usage, where, name, designType);
    return rule;
  }
  // No design type (esbuild, tsx, SWC, Bun, or tsc without emitDecoratorMetadata): the decorators
  // alone must say the type, with the same schema a tsc build gives.
  if (typings.includes('nested-without-type')) throw nestedWithoutType(usage, where, name);
  if (typings.includes('states')) return undefined;
  const declared = transformerType(type, name);
  if (declared !== undefined) {
    const rule = ruleFor(declared);
    if (rule === undefined) throw untypable(usage, where, name, declared);
    return rule;
  }
  throw typeNotStated(usage, where, typings.includes('custom'));
}

/** The class `@Type(() => X)` (class-transformer) names for `type.name`, if any. */
function transformerType(type: ClassConstructor, name: string): unknown {
  const typeMetadata = transformerStorage().findTypeMetadata(type, name);
  if (typeMetadata === undefined || typeMetadata.options?.discriminator !== undefined) {
    return undefined;
  }
  return typeMetadata.typeFunction();
}

/** The rule `@Param({ schema })` adds: the value must match the schema (ajv), as the LLM is told. */
function paramSchemaRule(schema: JSONSchema): PropertyDecorator {
  const validator = classValidator();
  return validator.ValidateBy({
    name: PARAM_SCHEMA_CONSTRAINT,
    constraints: [schema],
    validator: {
      validate: (value) => validateJson(schema, value).length === 0,
      defaultMessage: (args) =>
        `${args?.property ?? 'the param'} does not match its @Param schema: ${validateJson(
          schema,
          args?.value,
        )
          .map((issue) => `${issue.path === '' ? '' : `${issue.path} `}${issue.message}`)
          .join('; ')}`,
    },
  });
}

function ruleFor(designType: unknown): PropertyDecorator | undefined {
  const validator = classValidator();
  if (designType === String) return validator.IsString();
  if (designType === Number) return validator.IsNumber();
  if (designType === Boolean) return validator.IsBoolean();
  if (designType === Array) return validator.IsArray();
  return undefined;
}

/**
 * The class in `type`'s chain that declares `name`, for registering rules: the nearest one with a
 * decorator on it (its own `design:type`, class-validator rule, `@Describe`, `@Param` or
 * class-transformer decorator).
 */
function declaringClass(type: ClassConstructor, name: string): ClassConstructor {
  return (
    classChain(type).find(
      (owner) =>
        Reflect.getOwnMetadata('design:type', owner.prototype as object, name) !== undefined ||
        ownValidationMetadata(owner).some((entry) => entry.propertyName === name) ||
        ownDescriptions(owner).has(name) ||
        ownParams(owner).has(name) ||
        ownTransformerProperties(owner).includes(name),
    ) ?? type
  );
}
