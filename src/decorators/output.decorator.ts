import { classValidator } from './class-validation-modules';
import { DecoratorError } from '../errors/decorator.error';
import { InvalidSchemaError } from '../errors/invalid-schema.error';
import { SCHEMA_SHAPE_KEYWORDS, type JSONSchema } from '../protocol/json-schema';
import { validateJson } from '../protocol/json-validation';
import type { ClassConstructor } from './class-types';
import { decoratedClass, registerOnce } from './decorator-target';
import { ownDescriptions } from './describe.decorator';
import { classChain, getMetadataStorage } from './metadata-storage';
import { ownParams } from './param.decorator';

const SOLUTIONS = [
  'Pass a class whose properties carry class-validator decorators, e.g. `@Output(WeatherResult)`.',
  "Pass a JSON Schema object, e.g. `@Output({ type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] })`.",
];

/** Keywords that make a plain object recognisably a JSON Schema. */
const SCHEMA_KEYWORDS = new Set<string>([...SCHEMA_SHAPE_KEYWORDS, 'not']);

/**
 * Sets the tool's latent output schema (`_output`): the JSON the LLM (inline) or the module produces.
 * Accepts a class with class-validator decorators, or a plain JSON Schema object.
 */
export function Output(output: ClassConstructor | JSONSchema): ClassDecorator {
  return (target) => {
    const type = decoratedClass('@Output', target);
    registerOnce('@Output', getMetadataStorage().outputs, {
      target: type,
      output: normalizeOutput(output, type.name),
    });
  };
}

function normalizeOutput(
  output: unknown,
  targetName: string,
): { kind: 'class'; type: ClassConstructor } | { kind: 'schema'; schema: JSONSchema } {
  if (typeof output === 'function') {
    const type = output as ClassConstructor;
    const rules = classValidator()
      .getMetadataStorage()
      .getTargetValidationMetadatas(type, '', true, false);
    // A class whose properties carry only @Describe or @Param is typed by them (toolSchema).
    const described = classChain(type).some(
      (owner) => ownDescriptions(owner).size > 0 || ownParams(owner).size > 0,
    );
    if (rules.length > 0 || described) return { kind: 'class', type };
    throw new DecoratorError({
      decorator: '@Output',
      target: targetName,
      problem: `class ${type.name || '(anonymous)'} has no class-validator decorators, so it describes no schema.`,
      solutions: [
        `Decorate the properties of ${type.name || 'the class'} with class-validator decorators (@IsString(), @IsNumber(), @ValidateNested(), …).`,
        ...SOLUTIONS.slice(1),
      ],
    });
  }
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    throw new DecoratorError({
      decorator: '@Output',
      target: targetName,
      problem: `expected a class or a JSON Schema object, got ${output === null ? 'null' : Array.isArray(output) ? 'an array' : typeof output}.`,
      solutions: SOLUTIONS,
    });
  }
  const prototype: unknown = Object.getPrototypeOf(output);
  const keywords = Object.keys(output).filter((key) => SCHEMA_KEYWORDS.has(key));
  if ((prototype !== Object.prototype && prototype !== null) || keywords.length === 0) {
    throw new DecoratorError({
      decorator: '@Output',
      target: targetName,
      problem:
        'the object is not a JSON Schema (it has none of the keywords ' +
        `${[...SCHEMA_KEYWORDS].join(', ')}${prototype !== Object.prototype && prototype !== null ? ', and it is a class instance' : ''}).`,
      solutions: SOLUTIONS,
    });
  }
  try {
    validateJson(output as JSONSchema, null);
  } catch (error) {
    if (!InvalidSchemaError.isInstance(error)) throw error;
    throw new DecoratorError({
      decorator: '@Output',
      target: targetName,
      problem: `the object is not a valid JSON Schema (${error.message}).`,
      solutions: SOLUTIONS,
      cause: error,
    });
  }
  return { kind: 'schema', schema: output as JSONSchema };
}
