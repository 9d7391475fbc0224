import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

import type { ClassConstructor } from './class-types';
import {
  classValidator,
  jsonSchemaConverterNames,
  transformerStorage,
} from './class-validation-modules';

const converterNames = jsonSchemaConverterNames;

/** The class-validator constraint name of the rule `@Param({ schema })` adds. @internal */
export const PARAM_SCHEMA_CONSTRAINT = 'ideactParamSchema';

/**
 * What one class-validator rule says about its property's type on its own, without the TypeScript
 * type the compiler may record (`design:type`):
 * - `none`: nothing (`@IsOptional()`, `@ValidateIf()`, `@IsDefined()`);
 * - `states`: it types the property (`@IsString()`, `@IsIn([…])`, `@Allow()`, `@ValidateNested()`
 *   with class-transformer's `@Type(() => X)`, …);
 * - `nested-without-type`: `@ValidateNested()` without `@Type`: only the design type names the class;
 * - `custom`: a custom validator (`@Validate(MyConstraint)`, `registerDecorator`), which the schema
 *   converter types from the design type alone.
 * @internal
 */
export type RuleTyping = 'none' | 'states' | 'nested-without-type' | 'custom';

/** The {@link RuleTyping} of `rule`, a rule of `type` (own or inherited). @internal */
export function ruleTyping(type: ClassConstructor, rule: ValidationMetadata): RuleTyping {
  if (rule.type === 'conditionalValidation' || rule.type === 'isDefined') return 'none';
  if (rule.type === 'nestedValidation') {
    return transformerStorage().findTypeMetadata(type, rule.propertyName) === undefined
      ? 'nested-without-type'
      : 'states';
  }
  if (rule.type !== 'customValidation') return 'states';
  const name = constraintName(rule);
  return name !== undefined && (converterNames().has(name) || name === PARAM_SCHEMA_CONSTRAINT)
    ? 'states'
    : 'custom';
}

/** The name a rule's validator constraint is registered under (`isString`, `myConstraint`). @internal */
export function constraintName(rule: ValidationMetadata): string | undefined {
  if (rule.constraintCls === undefined) return rule.name;
  const [constraint] = classValidator()
    .getMetadataStorage()
    .getTargetValidatorConstraints(rule.constraintCls);
  return constraint?.name ?? rule.name;
}
