import { promises as fs } from 'node:fs';
import { IdeaFileNotFoundError } from '../errors/idea-file-not-found.error';
import { InvalidIdeaError } from '../errors/invalid-idea.error';
import type { Idea } from '../protocol/idea';
import { parseIdea } from '../protocol/parse-idea';

/**
 * Reads and parses a JSON file: `IdeaFileNotFoundError` when it is missing, `InvalidIdeaError` naming
 * the file (with line and column) when the JSON is invalid.
 */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new IdeaFileNotFoundError({ file, cause: error });
    throw new InvalidIdeaError({
      source: file,
      jsonPath: '',
      reason: `the file cannot be read (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new InvalidIdeaError({
      source: file,
      jsonPath: '',
      reason: `the file is not valid JSON (${detail}${positionOf(detail, text)}); fix the JSON syntax`,
      cause: error,
    });
  }
}

/** Reads an Idea file: JSON, then the Idea structure (`parseIdea`, errors name the JSON path). */
export async function readIdeaFile(file: string): Promise<Idea> {
  return parseIdea(await readJsonFile(file), file);
}

function positionOf(detail: string, text: string): string {
  const position = /at position (\d+)/.exec(detail);
  if (!position || /line \d+/.test(detail)) return '';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `, line ${line}, column ${column}`;
}
