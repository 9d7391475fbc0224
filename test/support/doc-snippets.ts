/**
 * Extracts the fenced ```ts blocks of a Markdown file so the docs test can compile and run them.
 *
 * An HTML comment right before a fence (blank lines allowed) controls a block; it is invisible on
 * GitHub and npm:
 *
 * - `<!-- snippet: compile-only — why -->` type-checks the block but does not run it;
 * - `<!-- snippet: skip — why -->` leaves it out entirely (the reason is required);
 * - `<!-- snippet: cjs -->` compiles it as a CommonJS file (default: an ES module); flags combine
 *   with commas: `<!-- snippet: cjs, compile-only — why -->`;
 * - `<!-- snippet-setup: …code… -->` is code prepended to the block (declarations the prose has
 *   already introduced, e.g. `const agent = createAgent(…)`), compiled and run with it;
 * - `<!-- snippet-file: ideas/lyricist.json -->` saves the block under that path: a `.ts` block next to
 *   the other snippets (so they can import it), a block in another language (JSON…) in the directory
 *   every snippet runs in. Blocks in other languages are extracted only with this directive.
 */

/** What the docs test does with a block. */
export type SnippetMode = 'run' | 'compile-only' | 'skip';

/** One fenced TypeScript block of a Markdown file. */
export interface DocSnippet {
  /** The Markdown file, as given. */
  file: string;
  /** The fence's language (`ts`, `json`, …). */
  language: string;
  /** Where the block is saved (`snippet-file`), relative to the snippets' directory. */
  path?: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The block's code (without the fences). */
  code: string;
  /** Hidden setup code prepended to `code` (empty when none). */
  setup: string;
  /** Run (default), type-check only, or skip. */
  mode: SnippetMode;
  /** ES module (default) or CommonJS. */
  moduleKind: 'esm' | 'cjs';
  /** Why the block is compile-only or skipped (required for skip). */
  reason?: string;
}

/** Languages of the fences that are extracted. */
const TYPESCRIPT = new Set(['ts', 'typescript']);
const FLAGS = new Set(['compile-only', 'skip', 'cjs']);

/** Every fenced ```ts block in `markdown`, with the directives of the comments before it. */
export function extractSnippets(markdown: string, file: string): DocSnippet[] {
  const lines = markdown.split('\n');
  const snippets: DocSnippet[] = [];
  let index = 0;
  while (index < lines.length) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[index]!);
    if (!open) {
      index += 1;
      continue;
    }
    const [, indent, fence, language] = open;
    const start = index;
    let end = index + 1;
    const closing = new RegExp(`^\\s*${fence![0] === '`' ? '`' : '~'}{${fence!.length},}\\s*$`);
    while (end < lines.length && !closing.test(lines[end]!)) end += 1;
    const directives = directivesBefore(lines, start, file);
    const isTypeScript = TYPESCRIPT.has(language!.toLowerCase());
    if (isTypeScript || directives.path !== undefined) {
      const code = lines
        .slice(start + 1, end)
        .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
        .join('\n');
      snippets.push({
        file,
        language: isTypeScript ? 'ts' : language!.toLowerCase(),
        line: start + 1,
        code: `${code}\n`,
        ...directives,
      });
    }
    index = end + 1;
  }
  return snippets;
}

interface Directives {
  path?: string;
  setup: string;
  mode: SnippetMode;
  moduleKind: 'esm' | 'cjs';
  reason?: string;
}

/** Reads the `snippet:` / `snippet-setup:` comments directly above line `fenceIndex`. */
function directivesBefore(lines: string[], fenceIndex: number, file: string): Directives {
  const result: Directives = { setup: '', mode: 'run', moduleKind: 'esm' };
  let text = lines.slice(0, fenceIndex).join('\n').trimEnd();
  for (;;) {
    if (!text.endsWith('-->')) break;
    const startAt = text.lastIndexOf('<!--');
    if (startAt === -1) break;
    const body = text.slice(startAt + 4, -3).trim();
    const where = `${file}:${fenceIndex + 1}`;
    if (body.startsWith('snippet-file:')) {
      result.path = body.slice('snippet-file:'.length).trim();
      if (result.path === '' || result.path.startsWith('/') || result.path.includes('..')) {
        throw new Error(
          `${where}: snippet-file needs a relative path inside the snippets' directory`,
        );
      }
    } else if (body.startsWith('snippet-setup:')) {
      result.setup = `${body.slice('snippet-setup:'.length).trim()}\n${result.setup}`;
    } else if (body.startsWith('snippet:')) {
      const [flagText, ...reasonParts] = body.slice('snippet:'.length).split(/\s+—\s+/);
      const reason = reasonParts.join(' — ').trim();
      for (const flag of flagText!.split(',').map((part) => part.trim())) {
        if (!FLAGS.has(flag)) {
          throw new Error(
            `${where}: unknown snippet flag "${flag}" (use ${[...FLAGS].join(', ')}; a reason follows " — ")`,
          );
        }
        if (flag === 'cjs') result.moduleKind = 'cjs';
        else result.mode = flag as SnippetMode;
      }
      if (reason !== '') result.reason = reason;
      if (result.mode === 'skip' && result.reason === undefined) {
        throw new Error(`${where}: a skipped snippet needs a reason: <!-- snippet: skip — why -->`);
      }
    } else {
      break;
    }
    text = text.slice(0, startAt).trimEnd();
  }
  return result;
}
