/**
 * The protocol's two vocabularies: the seeds' (early October 2025: `_module`, `_imports`) and the
 * newer revision's ("Acts", from 16 October 2025: `_delegate`, `_scopes`). Both name the same things
 * and ideact reads both; this table is the one place that pairs them, so messages, codegen and docs
 * show the names the user wrote (docs/protocol.md, "Vocabulary").
 */
export type ProtocolVocabulary = 'seeds' | 'acts';

/** The concepts named differently in the two vocabularies. */
export type VocabularyConcept =
  | 'delegateField'
  | 'scopesField'
  | 'delegateDecorator'
  | 'scopesDecorator'
  | 'delegatedCall'
  | 'delegate';

/** One row of {@link PROTOCOL_VOCABULARY}: a concept, its seed name and its newer name. */
export interface VocabularyEntry {
  /** What the names stand for. */
  readonly concept: VocabularyConcept;
  /** The name in the seeds (the older text). */
  readonly seeds: string;
  /** The name in the newer revision (Acts). */
  readonly acts: string;
  /** What it means, in a few words. */
  readonly meaning: string;
}

/** The vocabulary table: seed name ↔ newer name, for every concept the revision renamed. */
export const PROTOCOL_VOCABULARY: readonly VocabularyEntry[] = Object.freeze(
  [
    {
      concept: 'delegateField',
      seeds: '_module',
      acts: '_delegate',
      meaning:
        'Tool meta-field: run the Call in isolation, from a saved Idea (path or URL) or "anonymous"',
    },
    {
      concept: 'scopesField',
      seeds: '_imports',
      acts: '_scopes',
      meaning: 'Tool/Call meta-field: the parent-context kinds the Call may see',
    },
    {
      concept: 'delegateDecorator',
      seeds: '@Module',
      acts: '@Delegate',
      meaning: 'class decorator writing the delegate field',
    },
    {
      concept: 'scopesDecorator',
      seeds: '@Imports',
      acts: '@Scopes',
      meaning: 'class decorator writing the scopes field',
    },
    {
      concept: 'delegatedCall',
      seeds: 'module call',
      acts: 'delegated call',
      meaning: 'a Call that runs in isolation',
    },
    {
      concept: 'delegate',
      seeds: 'module',
      acts: 'delegate',
      meaning: 'the Idea a delegated Call runs',
    },
  ].map((entry) => Object.freeze(entry as VocabularyEntry)),
);

/** The Tool meta-field naming a delegate, in either vocabulary. */
export type DelegateField = '_module' | '_delegate';

/** The Tool/Call meta-field naming the scopes, in either vocabulary. */
export type ScopesField = '_imports' | '_scopes';

function entryOf(concept: VocabularyConcept): VocabularyEntry {
  return PROTOCOL_VOCABULARY.find((entry) => entry.concept === concept)!;
}

/** The name of `concept` in `vocabulary`, e.g. `('delegateField', 'acts')` → `'_delegate'`. */
export function vocabularyName(concept: VocabularyConcept, vocabulary: ProtocolVocabulary): string {
  return entryOf(concept)[vocabulary];
}

/** Both names of `concept`, seed name first, for messages that cannot know which one was written: `_module / _delegate`. */
export function bothNames(concept: VocabularyConcept): string {
  const entry = entryOf(concept);
  return `${entry.seeds} / ${entry.acts}`;
}

/** Both names of `concept` as inline code, for messages: `` `_module` / `_delegate` ``. */
export function bothNamesInCode(concept: VocabularyConcept): string {
  const entry = entryOf(concept);
  return `\`${entry.seeds}\` / \`${entry.acts}\``;
}

/** The vocabulary a meta-field name belongs to (`_delegate` → `'acts'`); undefined for other names. */
export function vocabularyOfName(name: string): ProtocolVocabulary | undefined {
  for (const entry of PROTOCOL_VOCABULARY) {
    if (entry.seeds === name) return 'seeds';
    if (entry.acts === name) return 'acts';
  }
  return undefined;
}
