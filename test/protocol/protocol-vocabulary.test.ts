import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  bothNames,
  bothNamesInCode,
  PROTOCOL_VOCABULARY,
  vocabularyName,
  vocabularyOfName,
} from 'ideact';

/** The rows of the first markdown table under `heading` in docs/protocol.md, cells trimmed. */
function docsTable(heading: string): string[][] {
  const text = readFileSync(path.join(__dirname, '..', '..', 'docs', 'protocol.md'), 'utf8');
  const lines = text.slice(text.indexOf(`## ${heading}\n`)).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const length = lines.slice(start).findIndex((line) => !line.startsWith('|'));
  return lines
    .slice(start, start + length)
    .filter((line) => !/^\|\s*-/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    );
}

describe('the vocabulary table: seed names ↔ newer names (R-DEL-1, R-SCOPE-1)', () => {
  it('pairs every renamed concept: _module/_delegate, _imports/_scopes, @Module/@Delegate, @Imports/@Scopes, module call/delegated call', () => {
    expect(PROTOCOL_VOCABULARY.map((entry) => [entry.seeds, entry.acts])).toEqual([
      ['_module', '_delegate'],
      ['_imports', '_scopes'],
      ['@Module', '@Delegate'],
      ['@Imports', '@Scopes'],
      ['module call', 'delegated call'],
      ['module', 'delegate'],
    ]);
    expect(Object.isFrozen(PROTOCOL_VOCABULARY)).toBe(true);
    expect(Object.isFrozen(PROTOCOL_VOCABULARY[0])).toBe(true);
  });

  it('names a concept in one vocabulary or in both, and tells which vocabulary a name belongs to', () => {
    expect(vocabularyName('delegateField', 'seeds')).toBe('_module');
    expect(vocabularyName('delegateField', 'acts')).toBe('_delegate');
    expect(vocabularyName('scopesDecorator', 'acts')).toBe('@Scopes');
    expect(bothNames('scopesField')).toBe('_imports / _scopes');
    expect(bothNamesInCode('delegateField')).toBe('`_module` / `_delegate`');
    expect(vocabularyOfName('_scopes')).toBe('acts');
    expect(vocabularyOfName('@Module')).toBe('seeds');
    expect(vocabularyOfName('_tool')).toBeUndefined();
  });

  it('docs/protocol.md shows the same table as the code', () => {
    const [header, ...rows] = docsTable('Vocabulary: seeds ↔ newer revision');
    expect(header).toEqual(['concept', 'seeds', 'newer revision', 'meaning']);
    expect(rows).toEqual(
      PROTOCOL_VOCABULARY.map((entry) => [entry.concept, entry.seeds, entry.acts, entry.meaning]),
    );
  });

  it('docs/protocol.md lists the newer rules with ids next to the seeds', () => {
    const rows = docsTable('Rules of the newer revision');
    expect(rows.slice(1).map((row) => row[0])).toEqual([
      'R-DEL-1',
      'R-DEL-2',
      'R-SCOPE-1',
      'R-SCOPE-2',
      'R-SCOPE-3',
      'R-TOOL-5',
    ]);
  });
});
