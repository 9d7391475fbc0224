import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CodegenError } from '../errors/codegen.error';
import { IdeaFileNotFoundError } from '../errors/idea-file-not-found.error';
import { findIdeaSchemaProblems } from '../protocol/idea-schema-problems';
import type { CodegenWarning } from './codegen-model';
import { generateIdeaSource } from './generate-idea-source';
import { ideaBaseName } from './naming';
import { readIdeaFile } from './read-idea-file';

/** Options of {@link generateFromIdeas}. */
export interface CodegenOptions {
  /** Directory the `.ts` files are written to (created when missing). */
  outDir: string;
  /** Compare instead of writing: report files that are missing or differ (for CI). */
  check?: boolean;
  /**
   * Root the `@Module(...)` paths are relative to (give the same `moduleRoot` to `createContainer`);
   * every Idea must lie inside it. Default: the folder of the Idea file given, or the directory given,
   * like `_module` references in `ideact run` and `validate`; with several paths, the deepest folder
   * holding them all (the generated classes share one container, so they share one root).
   */
  moduleRoot?: string;
  /**
   * Download http(s) `$ref`s while generating types. Off by default: codegen stays offline and a remote
   * `$ref` is an `InvalidSchemaError` (a `$ref` into the schema's own `$id` always resolves locally).
   */
  allowRemoteRefs?: boolean;
}

/** What happened to one output file. */
export type CodegenFileStatus =
  /** Written for the first time. */
  | 'created'
  /** Rewritten because its content changed. */
  | 'updated'
  /** Already up to date; not touched. */
  | 'unchanged'
  /** `check`: the file matches what would be generated. */
  | 'fresh'
  /** `check`: the file differs from what would be generated. */
  | 'stale'
  /** `check`: the file does not exist. */
  | 'missing';

/** One Idea and its generated file. */
export interface CodegenFile {
  /** The Idea file (as found from the given paths). */
  ideaFile: string;
  /** The generated `.ts` file. */
  outFile: string;
  /** The Tool class exported by the file. */
  className: string;
  /** Written, unchanged, or (with `check`) fresh / stale / missing. */
  status: CodegenFileStatus;
}

/** The outcome of a codegen run. */
export interface CodegenResult {
  /** One entry per Idea, in a stable order. */
  files: CodegenFile[];
  /** Schema parts typed exactly but validated only approximately, with their JSON paths. */
  warnings: CodegenWarning[];
  /** `check`: the output files that are stale or missing (empty when everything is fresh). */
  stale: string[];
}

/**
 * Generates one TypeScript file per Idea (`lyricist.json` → `lyricist.ts` exporting `LyricistInput`,
 * `LyricistOutput` and the Tool class `Lyricist`). Directories are searched recursively for `.json`
 * files and their sub-folders are kept under `outDir`. With `check`, nothing is written and `stale`
 * lists the files a fresh run would change.
 */
export async function generateFromIdeas(
  paths: string[],
  options: CodegenOptions,
): Promise<CodegenResult> {
  const entries = await collectIdeaFiles(paths, options.outDir);
  const moduleRoot =
    options.moduleRoot === undefined
      ? await defaultModuleRoot(paths)
      : await realPathOf(options.moduleRoot);
  const files: CodegenFile[] = [];
  const warnings: CodegenWarning[] = [];
  const stale: string[] = [];
  for (const entry of entries) {
    const idea = await readIdeaFile(entry.ideaFile);
    // The schema check of `ideact validate`, first: json-schema-to-typescript would misread an invalid
    // schema (a draft-04 `id` becomes a remote $ref or a file to open) and say something else.
    // `$ref`s to other documents are codegen's to resolve (offline unless allowRemoteRefs).
    const [invalidSchema] = findIdeaSchemaProblems(idea, entry.ideaFile, {
      externalReferences: 'skip',
    });
    if (invalidSchema !== undefined) throw invalidSchema;
    const modulePath = await relativeToRoot(entry.ideaFile, moduleRoot);
    const generated = await generateIdeaSource(idea, {
      ideaFile: entry.ideaFile,
      modulePath,
      cwd: path.dirname(path.resolve(entry.ideaFile)),
      allowRemoteRefs: options.allowRemoteRefs === true,
    });
    warnings.push(...generated.warnings);
    const existing = await readIfExists(entry.outFile);
    let status: CodegenFileStatus;
    if (options.check) {
      status =
        existing === undefined ? 'missing' : existing === generated.source ? 'fresh' : 'stale';
      if (status !== 'fresh') stale.push(entry.outFile);
    } else if (existing === generated.source) {
      status = 'unchanged';
    } else {
      await fs.mkdir(path.dirname(entry.outFile), { recursive: true });
      await fs.writeFile(entry.outFile, generated.source, 'utf8');
      status = existing === undefined ? 'created' : 'updated';
    }
    files.push({
      ideaFile: entry.ideaFile,
      outFile: entry.outFile,
      className: generated.className,
      status,
    });
  }
  return { files, warnings, stale };
}

interface IdeaEntry {
  ideaFile: string;
  outFile: string;
}

/** Expands files and directories into (Idea, output file) pairs; two Ideas may not share an output. */
async function collectIdeaFiles(paths: string[], outDir: string): Promise<IdeaEntry[]> {
  const entries: IdeaEntry[] = [];
  const byOutput = new Map<string, string>();
  const add = (ideaFile: string, relativeDir: string): void => {
    const outFile = path.join(outDir, relativeDir, `${ideaBaseName(ideaFile)}.ts`);
    const key = path.resolve(outFile);
    const previous = byOutput.get(key);
    if (previous !== undefined) {
      if (path.resolve(previous) === path.resolve(ideaFile)) return;
      throw new CodegenError({
        file: ideaFile,
        reason: `it would be written to ${outFile}, like ${previous}`,
        fix: 'Rename one of the Idea files or generate them into different --out directories.',
      });
    }
    byOutput.set(key, ideaFile);
    entries.push({ ideaFile, outFile });
  };
  for (const given of paths) {
    const stat = await fs.stat(given).catch((error: unknown) => {
      throw new IdeaFileNotFoundError({ file: given, cause: error });
    });
    if (stat.isDirectory()) {
      for (const relative of await listJsonFiles(given)) {
        add(path.join(given, relative), path.dirname(relative));
      }
    } else {
      add(given, '.');
    }
  }
  return entries;
}

/** `.json` files under `directory`, relative to it, sorted (so output order is stable). */
async function listJsonFiles(directory: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const children = await fs.readdir(path.join(directory, relative), { withFileTypes: true });
    for (const child of children) {
      if (child.name === 'node_modules' || child.name.startsWith('.')) continue;
      const childRelative = relative === '' ? child.name : path.join(relative, child.name);
      if (child.isDirectory()) await walk(childRelative);
      else if (child.isFile() && child.name.toLowerCase().endsWith('.json'))
        found.push(childRelative);
    }
  };
  await walk('');
  return found.sort();
}

/** The default module root (see `CodegenOptions.moduleRoot`): the given paths' deepest common folder. */
async function defaultModuleRoot(paths: string[]): Promise<string> {
  const folders: string[] = [];
  for (const given of paths) {
    const real = await realPathOf(given);
    const stat = await fs.stat(real);
    folders.push(stat.isDirectory() ? real : path.dirname(real));
  }
  let common = folders[0] ?? (await realPathOf(process.cwd()));
  for (const folder of folders.slice(1)) {
    while (!isInsideFolder(common, folder)) common = path.dirname(common);
  }
  return common;
}

/** True when `child` is `folder` or lies inside it (both absolute and real). */
function isInsideFolder(folder: string, child: string): boolean {
  const relative = path.relative(folder, child);
  return (
    relative === '' ||
    !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
  );
}

/** The real path of a given file or folder; IdeaFileNotFoundError when it does not exist. */
async function realPathOf(given: string): Promise<string> {
  try {
    return await fs.realpath(given);
  } catch (error) {
    throw new IdeaFileNotFoundError({ file: given, cause: error });
  }
}

/** The Idea's path relative to the module root, `/`-separated; an Idea outside the root is an error. */
async function relativeToRoot(ideaFile: string, moduleRoot: string): Promise<string> {
  const real = await fs.realpath(ideaFile);
  const relative = path.relative(moduleRoot, real);
  // `..` only as a whole segment: an Idea named `..notes.json` inside the root is inside it.
  const leaves = relative === '..' || relative.startsWith(`..${path.sep}`);
  if (relative === '' || leaves || path.isAbsolute(relative)) {
    throw new CodegenError({
      file: ideaFile,
      reason: `the Idea is outside the module root ${moduleRoot}, so no @Module path can name it`,
      fix: 'Pass --module-root (moduleRoot) pointing at a directory that contains the Idea.',
    });
  }
  return relative.split(path.sep).join('/');
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}
