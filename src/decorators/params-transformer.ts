import type { ClassConstructor as TransformerConstructor } from 'class-transformer';
import type { ValidationError } from 'class-validator';
import { classTransformer, classValidator } from './class-validation-modules';
import {
  ParamsValidationError,
  type ParamsValidationIssue,
} from '../errors/params-validation.error';
import type { ParamsTransformer } from '../calls/activity';
import type { ToolClass } from './class-types';
import { completeParamTypes } from './param-properties';
import { detachUntypedValues, restoreUntypedValues } from './untyped-param-values';

/**
 * Turns the params of an explicit Call into an instance of the tool's class (class-transformer) and
 * validates it (class-validator) before the Activity runs. Unknown params are rejected
 * (`whitelist` + `forbidNonWhitelisted`), `_`-prefixed meta-fields are dropped first. The Activity
 * receives the validated instance. Values of untyped properties (no `@Type`) are not copied by
 * class-transformer but passed as sent, so plain-object params keep every key (`constructor` and
 * `__proto__` included). Failure: `ParamsValidationError` listing each property and constraint.
 */
export function createParamsTransformer(type: ToolClass, toolName: string): ParamsTransformer {
  const constructor = type as unknown as TransformerConstructor<object>;
  completeParamTypes(type, { decorator: '@Tool', target: type.name });
  const hasRules =
    classValidator().getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)
      .length > 0;
  return async (params) => {
    const plain = Object.fromEntries(
      Object.entries(params).filter(([key]) => !key.startsWith('_')),
    );
    if (!hasRules) {
      // A tool without params: class-validator would reject the instance as an "unknown value".
      const extra = Object.keys(plain);
      if (extra.length > 0) {
        throw new ParamsValidationError({
          toolName,
          issues: extra.map((key) => ({
            path: key,
            messages: [`property ${key} should not exist`],
          })),
        });
      }
      return classTransformer().plainToInstance(constructor, {}) as Record<string, unknown>;
    }
    const { typed, detached, issues } = detachUntypedValues(type, plain);
    let instance: object;
    try {
      instance = classTransformer().plainToInstance(constructor, typed);
    } catch (error) {
      // class-transformer fails on shapes it cannot copy: a params problem, never a raw crash.
      throw new ParamsValidationError({
        toolName,
        issues: [
          ...issues,
          {
            path: '(params)',
            messages: [
              `could not be converted to ${type.name}: ${error instanceof Error ? error.message : String(error)}`,
            ],
          },
        ],
        cause: error,
      });
    }
    restoreUntypedValues(instance, detached);
    const errors = await classValidator().validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    issues.push(...flattenErrors(errors, ''));
    if (issues.length > 0) throw new ParamsValidationError({ toolName, issues });
    return instance as Record<string, unknown>;
  };
}

function flattenErrors(
  errors: readonly ValidationError[],
  prefix: string,
): ParamsValidationIssue[] {
  const issues: ParamsValidationIssue[] = [];
  for (const error of errors) {
    const path = prefix === '' ? error.property : `${prefix}.${error.property}`;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) issues.push({ path, messages, message: messages.join('; ') });
    if (error.children && error.children.length > 0)
      issues.push(...flattenErrors(error.children, path));
  }
  return issues;
}
