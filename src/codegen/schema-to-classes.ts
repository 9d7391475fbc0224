import type { JSONSchema } from '../protocol/json-schema';
import type { ClassModel, ImportSet, PropertyModel } from './codegen-model';
import { childPath, quote, toPascalCase } from './naming';
import {
  FORMAT_DECORATORS,
  UNMAPPED_KEYWORDS,
  describedBy,
  inferType,
  isObjectSchema,
  isPrimitive,
  pointer,
  pointerPath,
  referenceName,
} from './schema-helpers';
import { renderLiteral } from './literal';

/** Where class-validator / class-transformer decorators are imported from in generated files. */
const VALIDATOR = 'class-validator';
const TRANSFORMER = 'class-transformer';

/** What the builder needs to know; it collects classes and warnings as it walks the schema. */
export interface ClassBuilderOptions {
  /** The input schema (root of local `$ref`s). */
  root: JSONSchema;
  /** JSON Pointer of `root` inside the Idea file, for warnings. */
  rootPath: string;
  /** The Tool class name; nested classes are named after it. */
  className: string;
  /** Names already taken in the generated file (types from json-schema-to-typescript). */
  takenNames: Set<string>;
  /** Where imports used by the decorators are recorded. */
  imports: ImportSet;
  /** Receives one call per unsupported schema part. */
  warn: (jsonPath: string, message: string) => void;
}

/** A property's TypeScript type and its decorators (without `@`). */
interface ValueMapping {
  type: string;
  decorators: string[];
}

/**
 * Builds the Tool class and its nested params classes from an input schema: every property gets the
 * class-validator decorators that express its schema (required vs `@IsOptional()`, types, enums,
 * bounds, arrays, nested objects via `@ValidateNested()` + `@Type()`), `@Describe()` for descriptions,
 * and the closest validation plus a warning for anything class-validator cannot express.
 * Nested classes come first in the result (a class is declared before the classes that use it).
 * It follows only `properties`, `items` and `$ref` (the shapes a class can hold; other subschema
 * keywords are warnings), so it reads those directly instead of walking every subschema (schema-walk).
 */
export class ClassBuilder {
  private readonly classes: ClassModel[] = [];
  private readonly classByReference = new Map<string, string>();
  private readonly inProgress = new Set<string>();

  constructor(private readonly options: ClassBuilderOptions) {
    options.takenNames.add(options.className);
  }

  /** Builds all classes; the last one is the Tool class named `options.className`. */
  build(): ClassModel[] {
    const { root, rootPath, className } = this.options;
    const resolved = this.resolve(root, rootPath);
    if (resolved !== undefined && isObjectSchema(resolved.schema)) {
      this.reportUnmapped(resolved.schema, resolved.path, ['additionalProperties']);
      const properties = this.buildProperties(resolved.schema, resolved.path, className);
      this.classes.push({ name: className, properties });
    } else {
      this.options.warn(
        rootPath,
        'the input schema is not an object schema with properties; the Tool class has no validated params (the input type is still exact)',
      );
      this.classes.push({ name: className, properties: [] });
    }
    return this.classes;
  }

  private buildProperties(schema: JSONSchema, path: string, owner: string): PropertyModel[] {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties: PropertyModel[] = [];
    const propertiesPath = childPath(path, 'properties');
    for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
      const propertyPath = childPath(propertiesPath, name);
      if (name.startsWith('_')) {
        this.options.warn(
          propertyPath,
          `property "${name}" starts with "_", which marks meta-fields in a Tool schema; it is left out of the class (rename it to make it a param)`,
        );
        continue;
      }
      const optional = !required.has(name);
      const mapping = this.mapValue(
        propertySchema,
        propertyPath,
        false,
        `${owner}${toPascalCase(name)}`,
      );
      const decorators: string[] = [];
      const description = describedBy(propertySchema) ?? this.referencedDescription(propertySchema);
      if (description !== undefined) {
        decorators.push(`${this.options.imports.use('ideact', 'Describe')}(${quote(description)})`);
      }
      if (optional) decorators.push(`${this.validator('IsOptional')}()`);
      decorators.push(...mapping.decorators);
      properties.push({ name, optional, type: mapping.type, decorators });
    }
    return properties;
  }

  /** Maps one value schema; `each` means it describes the items of an array property. */
  private mapValue(
    schema: JSONSchema,
    path: string,
    each: boolean,
    nestedName: string,
  ): ValueMapping {
    const reference = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    const resolved = this.resolve(schema, path);
    if (resolved === undefined) return this.allow(each);
    const target = resolved.schema;
    const targetPath = resolved.path;
    const eachOption = each ? '{ each: true }' : '';
    const withEach = (name: string, ...args: string[]): string =>
      `${this.validator(name)}(${[...args, ...(each ? [eachOption] : [])].join(', ')})`;

    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (Array.isArray(target[keyword])) {
        this.options.warn(
          childPath(targetPath, keyword),
          `${keyword} is not supported in params; the property accepts any value at run time (@Allow()) while its TypeScript type stays exact`,
        );
        return { type: 'unknown', decorators: this.allow(each).decorators };
      }
    }
    if (Array.isArray(target.type)) {
      this.options.warn(
        childPath(targetPath, 'type'),
        'a list of types is not supported in params; the property accepts any value at run time (@Allow())',
      );
      return { type: 'unknown', decorators: this.allow(each).decorators };
    }
    if (target.const !== undefined || Array.isArray(target.enum)) {
      const values = target.const !== undefined ? [target.const] : (target.enum as unknown[]);
      if (!values.every(isPrimitive)) {
        this.options.warn(
          childPath(targetPath, target.const !== undefined ? 'const' : 'enum'),
          'enum values that are objects or arrays are not supported; the property accepts any value (@Allow())',
        );
        return { type: 'unknown', decorators: this.allow(each).decorators };
      }
      this.reportUnmapped(target, targetPath);
      return {
        type: values.map((value) => renderLiteral(value)).join(' | '),
        decorators: [withEach('IsIn', renderLiteral(values))],
      };
    }

    const type = typeof target.type === 'string' ? target.type : inferType(target);
    this.reportUnmapped(target, targetPath, type === 'object' ? ['additionalProperties'] : []);
    switch (type) {
      case 'string':
        return { type: 'string', decorators: this.stringDecorators(target, targetPath, withEach) };
      case 'number':
      case 'integer':
        return { type: 'number', decorators: this.numberDecorators(target, type, withEach) };
      case 'boolean':
        return { type: 'boolean', decorators: [withEach('IsBoolean')] };
      case 'array':
        return this.arrayMapping(target, targetPath, each, nestedName);
      case 'object':
        return this.objectMapping(
          target,
          targetPath,
          each,
          this.referenceClassName(reference) ?? nestedName,
        );
      case 'null':
        this.options.warn(
          childPath(targetPath, 'type'),
          'type "null" is not supported in params; the property accepts any value (@Allow())',
        );
        return { type: 'null', decorators: this.allow(each).decorators };
      default:
        return { type: 'unknown', decorators: this.allow(each).decorators };
    }
  }

  private stringDecorators(
    schema: JSONSchema,
    path: string,
    withEach: (name: string, ...args: string[]) => string,
  ): string[] {
    const decorators = [withEach('IsString')];
    if (typeof schema.format === 'string') {
      const decorator = FORMAT_DECORATORS[schema.format];
      if (decorator !== undefined) decorators.push(withEach(decorator));
      else
        this.options.warn(
          childPath(path, 'format'),
          `format "${schema.format}" has no class-validator counterpart; only the string type is validated`,
        );
    }
    if (typeof schema.minLength === 'number')
      decorators.push(withEach('MinLength', String(schema.minLength)));
    if (typeof schema.maxLength === 'number')
      decorators.push(withEach('MaxLength', String(schema.maxLength)));
    if (typeof schema.pattern === 'string') {
      decorators.push(withEach('Matches', `new RegExp(${quote(schema.pattern)})`));
    }
    return decorators;
  }

  private numberDecorators(
    schema: JSONSchema,
    type: string,
    withEach: (name: string, ...args: string[]) => string,
  ): string[] {
    const decorators = [type === 'integer' ? withEach('IsInt') : withEach('IsNumber')];
    if (typeof schema.minimum === 'number')
      decorators.push(withEach('Min', String(schema.minimum)));
    if (typeof schema.maximum === 'number')
      decorators.push(withEach('Max', String(schema.maximum)));
    if (typeof schema.multipleOf === 'number') {
      decorators.push(withEach('IsDivisibleBy', String(schema.multipleOf)));
    }
    return decorators;
  }

  private arrayMapping(
    schema: JSONSchema,
    path: string,
    each: boolean,
    nestedName: string,
  ): ValueMapping {
    if (each) {
      this.options.warn(
        path,
        'arrays nested in arrays are not supported in params; only the outer array is validated',
      );
      return { type: 'unknown[]', decorators: [`${this.validator('IsArray')}({ each: true })`] };
    }
    const decorators = [`${this.validator('IsArray')}()`];
    if (typeof schema.minItems === 'number') {
      decorators.push(`${this.validator('ArrayMinSize')}(${schema.minItems})`);
    }
    if (typeof schema.maxItems === 'number') {
      decorators.push(`${this.validator('ArrayMaxSize')}(${schema.maxItems})`);
    }
    if (schema.uniqueItems === true) decorators.push(`${this.validator('ArrayUnique')}()`);
    const items = schema.items;
    if (items === undefined) return { type: 'unknown[]', decorators };
    if (Array.isArray(items) || typeof items !== 'object' || items === null) {
      this.options.warn(
        childPath(path, 'items'),
        'tuple items are not supported in params; only the array type is validated',
      );
      return { type: 'unknown[]', decorators };
    }
    const item = this.mapValue(items, childPath(path, 'items'), true, `${nestedName}Item`);
    const itemType = /[|&]/.test(item.type) ? `(${item.type})` : item.type;
    const itemDecorators = item.decorators.filter((decorator) => !decorator.startsWith('Allow('));
    return { type: `${itemType}[]`, decorators: [...decorators, ...itemDecorators] };
  }

  private objectMapping(
    schema: JSONSchema,
    path: string,
    each: boolean,
    nestedName: string,
  ): ValueMapping {
    const eachOption = each ? '{ each: true }' : '';
    const additional = schema.additionalProperties;
    if (typeof additional === 'object' && additional !== null) {
      this.options.warn(
        childPath(path, 'additionalProperties'),
        'a schema for additional properties is not supported in params; their values are not validated',
      );
    }
    if (schema.properties === undefined || Object.keys(schema.properties).length === 0) {
      return {
        type: 'Record<string, unknown>',
        decorators: [`${this.validator('IsObject')}(${eachOption})`],
      };
    }
    const className = this.nestedClass(schema, path, nestedName);
    if (className === undefined) {
      this.options.warn(
        path,
        'a recursive $ref is not supported in params; the nested value is validated as a plain object (@IsObject())',
      );
      return {
        type: 'Record<string, unknown>',
        decorators: [`${this.validator('IsObject')}(${eachOption})`],
      };
    }
    return {
      type: className,
      decorators: [
        `${this.validator('ValidateNested')}(${eachOption})`,
        `${this.options.imports.use(TRANSFORMER, 'Type')}(() => ${className})`,
      ],
    };
  }

  /** Builds (once per schema location) the nested class; undefined while it is being built (recursion). */
  private nestedClass(schema: JSONSchema, path: string, baseName: string): string | undefined {
    const existing = this.classByReference.get(path);
    if (existing !== undefined) return this.inProgress.has(path) ? undefined : existing;
    const name = this.uniqueName(baseName);
    this.classByReference.set(path, name);
    this.inProgress.add(path);
    const properties = this.buildProperties(schema, path, name);
    this.inProgress.delete(path);
    this.classes.push({ name, properties });
    return name;
  }

  /** The description of the schema a `$ref` points to (a definition's own description). */
  private referencedDescription(schema: JSONSchema): string | undefined {
    if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#')) return undefined;
    const target = pointer(this.options.root, schema.$ref);
    return target === undefined ? undefined : describedBy(target);
  }

  /** `#/$defs/Verse` → `<ClassName>Verse`: one class per definition, named after it. */
  private referenceClassName(reference: string | undefined): string | undefined {
    const name = referenceName(reference);
    return name === undefined ? undefined : `${this.options.className}${name}`;
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let counter = 2; this.options.takenNames.has(name); counter += 1)
      name = `${base}${counter}`;
    this.options.takenNames.add(name);
    return name;
  }

  /** Follows local `$ref`s; undefined (with a warning) when a reference cannot be followed. */
  private resolve(
    schema: JSONSchema,
    path: string,
  ): { schema: JSONSchema; path: string } | undefined {
    let current = schema;
    let currentPath = path;
    const seen = new Set<string>();
    while (typeof current.$ref === 'string') {
      const reference = current.$ref;
      if (seen.has(reference) || !reference.startsWith('#')) {
        this.options.warn(
          childPath(currentPath, '$ref'),
          reference.startsWith('#')
            ? `$ref "${reference}" points to itself; the value accepts anything (@Allow())`
            : `external $ref "${reference}" is not followed for validation; the value accepts anything (@Allow()) while its TypeScript type stays exact`,
        );
        return undefined;
      }
      seen.add(reference);
      const target = pointer(this.options.root, reference);
      if (target === undefined) {
        this.options.warn(
          childPath(currentPath, '$ref'),
          `$ref "${reference}" does not point to a schema inside the input schema; the value accepts anything (@Allow())`,
        );
        return undefined;
      }
      current = target;
      currentPath = pointerPath(this.options.rootPath, reference);
    }
    return { schema: current, path: currentPath };
  }

  private reportUnmapped(schema: JSONSchema, path: string, alsoHandled: string[] = []): void {
    for (const keyword of UNMAPPED_KEYWORDS) {
      if (schema[keyword] === undefined || alsoHandled.includes(keyword)) continue;
      this.options.warn(
        childPath(path, keyword),
        `"${keyword}" has no class-validator counterpart; it is not validated at run time (the rest of the schema is)`,
      );
    }
  }

  private allow(each: boolean): ValueMapping {
    return {
      type: 'unknown',
      decorators: [`${this.validator('Allow')}(${each ? '{ each: true }' : ''})`],
    };
  }

  private validator(name: string): string {
    return this.options.imports.use(VALIDATOR, name);
  }
}
