/**
 * The intermediate model codegen builds from an Idea before rendering TypeScript: classes with
 * decorated properties, the imports they need, and warnings for schema parts it cannot express.
 */

/** A schema part codegen could not express exactly; the class gets the closest validation instead. */
export interface CodegenWarning {
  /** The Idea file the warning is about (as given to codegen). */
  ideaFile: string;
  /** JSON Pointer of the schema part inside the Idea file, e.g. `/context/1/schema/properties/mood/anyOf`. */
  jsonPath: string;
  /** What is not supported and which validation was used instead. */
  message: string;
}

/** One property of a generated class. */
export interface PropertyModel {
  /** The property name as in the schema. */
  name: string;
  /** True when the property is not listed in `required`. */
  optional: boolean;
  /** The TypeScript type written for the property. */
  type: string;
  /** Decorator expressions without the `@`, in the order they are written. */
  decorators: string[];
}

/** A generated class: the Tool class itself or a nested params class. */
export interface ClassModel {
  /** The class name. */
  name: string;
  /** Its properties in schema order. */
  properties: PropertyModel[];
}

/** Named imports the generated file needs, per module; rendered sorted so output is deterministic. */
export class ImportSet {
  private readonly byModule = new Map<string, Set<string>>();

  /** Records that `name` is imported from `module`, and returns `name` for inline use. */
  use(module: string, name: string): string {
    let names = this.byModule.get(module);
    if (!names) {
      names = new Set();
      this.byModule.set(module, names);
    }
    names.add(name);
    return name;
  }

  /** The import statements, modules in a fixed order (`ideact` first), names sorted. */
  render(): string[] {
    const order = ['ideact', 'class-validator', 'class-transformer'];
    const modules = [...this.byModule.keys()].sort(
      (left, right) => rank(order, left) - rank(order, right) || left.localeCompare(right),
    );
    return modules.map((module) => {
      const names = [...this.byModule.get(module)!].sort();
      const line = `import { ${names.join(', ')} } from '${module}';`;
      if (line.length <= 100) return line;
      return `import {\n${names.map((name) => `  ${name},`).join('\n')}\n} from '${module}';`;
    });
  }
}

function rank(order: string[], module: string): number {
  const index = order.indexOf(module);
  return index === -1 ? order.length : index;
}
