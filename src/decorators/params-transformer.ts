import type { ClassConstructor as TransformerConstructor } from 'class-transformer';
import type { ValidationError } from 'class-validator';
import { classTransformer, classValidator } from './class-validation-modules';
import {
  ParamsValidationError,
  type ParamsValidationIssue,
} from '../errors/params-validation.error';
import type { ParamsTransformer } from '../runtime/activity';
import type { ToolClass } from './class-types';

/**
 * Turns the params of an explicit Call into an instance of the tool's class (class-transformer) and
 * validates it (class-validator) before the Activity runs. Unknown params are rejected
 * (`whitelist` + `forbidNonWhitelisted`), `_`-prefixed meta-fields are dropped first. The Activity
 * receives the validated instance. Failure: `ParamsValidationError` listing each property and constraint.
 */
export function createParamsTransformer(type: ToolClass, toolName: string): ParamsTransformer {
  const constructor = type as unknown as TransformerConstructor<object>;
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
    const instance = classTransformer().plainToInstance(constructor, plain);
    const errors = await classValidator().validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    if (errors.length > 0) {
      throw new ParamsValidationError({ toolName, issues: flattenErrors(errors, '') });
    }
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
    if (messages.length > 0) issues.push({ path, messages });
    if (error.children && error.children.length > 0)
      issues.push(...flattenErrors(error.children, path));
  }
  return issues;
}
