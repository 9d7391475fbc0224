import * as path from 'node:path';
import { escapePointerSegment } from '../protocol/json-pointer';

/** File-name suffixes stripped from an Idea file to get its base name, longest first. */
const IDEA_SUFFIXES = ['.idea.json', '.json'];

/**
 * The base name of an Idea file: `lyricist.json` → `lyricist`, `case.idea.json` → `case`.
 * Both suffixes are accepted so fixtures and real Ideas can share a folder.
 */
export function ideaBaseName(file: string): string {
  const name = path.basename(file);
  for (const suffix of IDEA_SUFFIXES) {
    if (name.toLowerCase().endsWith(suffix) && name.length > suffix.length) {
      return name.slice(0, -suffix.length);
    }
  }
  return name;
}

/**
 * PascalCase of a name (`sound-designer` → `SoundDesigner`, `soundDesigner` → `SoundDesigner`);
 * inner capitals are kept. A result that would start with a digit or be empty gets an `Idea` prefix
 * so it is always a valid TypeScript identifier.
 */
export function toPascalCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const pascal = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  if (pascal === '' || /^[0-9]/.test(pascal)) return `Idea${pascal}`;
  return pascal;
}

/** True when `name` can be written as a bare property name / identifier in TypeScript. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

/** A property key as written in TypeScript source: bare when possible, else a single-quoted string. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : quote(name);
}

/** A single-quoted TypeScript string literal (deterministic escaping). */
export function quote(text: string): string {
  const body = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${body}'`;
}

/** Appends one segment to a JSON Pointer used in warnings (`/context/1/schema` + `properties`). */
export function childPath(parent: string, key: string | number): string {
  return `${parent}/${escapePointerSegment(String(key))}`;
}
