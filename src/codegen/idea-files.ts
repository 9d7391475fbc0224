import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { IdeaFileNotFoundError } from '../errors/idea-file-not-found.error';

/**
 * Finding Idea files in a folder, shared by the commands that serve a folder of Ideas (`ideact
 * worker`, `ideact runs`, `ideact dev`), so they name and find Ideas the same way.
 */

/** The name an Idea file is known by: its base name without `.idea.json` / `.json`. */
export function ideaNameOf(file: string): string {
  return path.basename(file).replace(/(\.idea)?\.json$/i, '');
}

/** Idea files (`.json`) under `dir`, recursively, sorted; IdeaFileNotFoundError when `dir` is missing. */
export async function listIdeaFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await fs.readdir(dir, { recursive: true })) as string[];
  } catch (error) {
    throw new IdeaFileNotFoundError({ file: dir, cause: error });
  }
  return entries
    .filter((entry) => entry.toLowerCase().endsWith('.json'))
    .map((entry) => path.join(dir, entry))
    .sort();
}
