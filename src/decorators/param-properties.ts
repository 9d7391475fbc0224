import { DecoratorError } from '../errors/decorator.error';
import type { ClassConstructor } from './class-types';
import type { SchemaUsage } from './schema-usage';
import { classValidator, ownTransformerProperties } from './class-validation-modules';
import { ownDescriptions } from './describe.decorator';
import { classChain } from './metadata-storage';
import { missingDesignMetadataError } from './reflect-metadata-check';

/** class-validator metadata kinds that say nothing about a value's type (`@IsOptional`, `@IsDefined`, `@ValidateIf`). */
const UNTYPED_KINDS = new Set(['conditionalValidation', 'isDefined']);

/** Design types that are classes but not JSON values (no nested schema can describe them). */
const NON_JSON_TYPES = new Set<unknown>([
  Date,
  Map,
  Set,
  WeakMap,
  WeakSet,
  Promise,
  Function,
  Symbol,
  BigInt,
  RegExp,
  Error,
]);

/**
 * The properties (by declaring class) whose type rule ideact added from the design type, and whether
 * class-validator lists them last (they had no rule at all before).
 */
const addedRules = new WeakMap<ClassConstructor, Map<string, boolean>>();

/**
 * Makes every property ideact can see part of the schema, typed: each needs a `design:type` (else the
 * program was compiled without `emitDecoratorMetadata`), and a property without a type rule (only
 * `@Describe`, `@Type`, `@IsOptional`, `@IsDefined` or `@ValidateIf`) gets the class-validator rule of
 * its design type (string, number, boolean, array), so that schema and validation agree. What cannot be
 * typed that way (a union or `any`, a nested class without `@ValidateNested`) is a DecoratorError naming
 * the class and property. Idempotent. Returns the properties whose rule ideact added (now or before),
 * which class-validator lists last.
 * @internal
 */
export function completeParamTypes(type: ClassConstructor, usage: SchemaUsage): Set<string> {
  const validator = classValidator();
  const metadata = validator
    .getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false);
  const kinds = new Map<string, string[]>();
  for (const entry of metadata) {
    kinds.set(entry.propertyName, [...(kinds.get(entry.propertyName) ?? []), entry.type]);
  }
  const names = new Set(kinds.keys());
  for (const owner of classChain(type)) {
    for (const name of ownDescriptions(owner).keys()) names.add(name);
    for (const name of ownTransformerProperties(owner)) names.add(name);
  }
  const late = new Set<string>();
  for (const name of names) {
    const designType: unknown = Reflect.getMetadata('design:type', type.prototype as object, name);
    const where = `${type.name}.${name}`;
    if (designType === undefined) {
      throw missingDesignMetadataError(
        usage.decorator,
        usage.target,
        `the decorated property ${where} has no design type.`,
      );
    }
    const owner = declaringClass(type, name);
    const added = addedRules.get(owner)?.get(name);
    if (added !== undefined) {
      if (added) late.add(name);
      continue;
    }
    const propertyKinds = kinds.get(name) ?? [];
    if (propertyKinds.some((kind) => !UNTYPED_KINDS.has(kind))) continue;
    const rule = ruleFor(designType);
    if (rule === undefined) throw untypable(usage, where, name, designType);
    rule(owner.prototype as object, name);
    const listedLast = propertyKinds.length === 0;
    addedRules.set(owner, new Map([...(addedRules.get(owner) ?? []), [name, listedLast]]));
    if (listedLast) late.add(name);
  }
  return late;
}

function ruleFor(designType: unknown): PropertyDecorator | undefined {
  const validator = classValidator();
  if (designType === String) return validator.IsString();
  if (designType === Number) return validator.IsNumber();
  if (designType === Boolean) return validator.IsBoolean();
  if (designType === Array) return validator.IsArray();
  return undefined;
}

/** The class in `type`'s chain that declares `name` (its own `design:type`), for registering rules. */
function declaringClass(type: ClassConstructor, name: string): ClassConstructor {
  return (
    classChain(type).find(
      (owner) =>
        Reflect.getOwnMetadata('design:type', owner.prototype as object, name) !== undefined,
    ) ?? type
  );
}

function untypable(
  usage: SchemaUsage,
  where: string,
  name: string,
  designType: unknown,
): DecoratorError {
  const typeName = typeof designType === 'function' ? designType.name : String(designType);
  if (designType === Object) {
    return new DecoratorError({
      ...usage,
      problem: `the param ${where} has no class-validator type decorator, and its TypeScript type (a union, any, unknown, an interface or an object literal: design type Object) says nothing at run time.`,
      solutions: [
        `Add the decorator of its type to ${name}: @IsObject(), @IsString(), @IsNumber(), @IsIn([…]), …`,
        `Use @Allow() if ${name} may really hold any value.`,
      ],
    });
  }
  if (NON_JSON_TYPES.has(designType)) {
    return new DecoratorError({
      ...usage,
      problem: `the param ${where} is a ${typeName}, which is not a JSON value the LLM can write.`,
      solutions: [
        `Declare ${name} as a string with a format decorator (e.g. \`@IsDateString() ${name}!: string\` for dates).`,
      ],
    });
  }
  return new DecoratorError({
    ...usage,
    problem: `the nested param ${where} (class ${typeName}) has no @ValidateNested(), so it would be neither described nor validated.`,
    solutions: [
      `Add @ValidateNested() and @Type(() => ${typeName}) (class-transformer) to ${name}.`,
    ],
  });
}
