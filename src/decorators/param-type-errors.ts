import { DecoratorError } from '../errors/decorator.error';
import { PARAM_TYPES } from './param.decorator';
import type { SchemaUsage } from './schema-usage';

/**
 * The errors of a param ideact cannot type (see `completeParamTypes`): each names the class, the
 * property and the decorator to add.
 */

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
 * A param whose type (design type or `@Type` class) gives no rule: `Object` (a union, any, …), a
 * non-JSON type, or a class without `@ValidateNested()`. @internal
 */
export function untypable(
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
        `Or give its JSON Schema: @Param({ schema: { anyOf: [{ type: 'string' }, { type: 'number' }] } }).`,
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

/** The flags that make the TypeScript type known at run time: the last of the fixes, never the only. */
const WITH_METADATA =
  'Or compile with decorator metadata (tsc or ts-node with "emitDecoratorMetadata": true, SWC with jsc.transform.decoratorMetadata: true): then its TypeScript type is used.';

/**
 * A param with no type decorator in a program compiled without decorator metadata (esbuild, tsx,
 * SWC, Bun): nothing says its type. @internal
 */
export function typeNotStated(usage: SchemaUsage, where: string, custom: boolean): DecoratorError {
  return new DecoratorError({
    ...usage,
    problem:
      `no decorator states the type of the param ${where}` +
      (custom ? ' (its custom validators do not say it)' : '') +
      ', and the program was compiled without decorator metadata (as esbuild, tsx, SWC and Bun compile), so its TypeScript type is not known at run time.',
    solutions: [
      `Add @IsString() or @Param({ type: 'string' }) to ${where} if it is a string; for another type its class-validator decorator (@IsNumber(), @IsInt(), @IsBoolean(), @IsIn([…]), @IsEnum(E), @IsArray() with @IsString({ each: true }) …, @ValidateNested() + @Type(() => Class)) or @Param({ type: ${PARAM_TYPES.slice(
        1,
      )
        .map((type) => `'${type}'`)
        .join(' | ')} }).`,
      `Give its whole JSON Schema with @Param({ schema: { … } }).`,
      WITH_METADATA,
    ],
  });
}

/**
 * `@ValidateNested()` without class-transformer's `@Type` in a program compiled without decorator
 * metadata: nothing names the nested class. @internal
 */
export function nestedWithoutType(usage: SchemaUsage, where: string, name: string): DecoratorError {
  return new DecoratorError({
    ...usage,
    problem: `the nested param ${where} has @ValidateNested() but no @Type(() => ItsClass) (class-transformer), and the program was compiled without decorator metadata, so nothing names its class: it would be neither described nor converted.`,
    solutions: [
      `Add @Type(() => ItsClass) from class-transformer to ${name} (for an array, the class of its items).`,
      WITH_METADATA,
    ],
  });
}
